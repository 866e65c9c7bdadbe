// libFuzzer target: the Verilated CRQ bank (rtl/bbc/flint_bbc_crq_bank.sv, a tiny geometry:
// 8 entries, 2 slots, 12-bit payloads) against its golden model (model/bbc/crq_bank.hpp), the
// fuzzer's bytes as its input stream: two bytes a cycle, the first the handshakes (bit 0 append,
// bit 1 its slot, bit 2 pop, bit 3 its slot; bit 4 asserts reset for the cycle, which also
// empties the model), the second the low payload byte (the high nibble comes from bits 5-7).
// What must hold, or the target aborts (a finding):
// - every pop's answer comes the next cycle with the model's payload and slot;
// - nonempty_o, used_o and pop_ready_o equal the model's every cycle; app_ready_o is low when
//   the bank is full and high with three or more places free (the free FIFO's read latency);
// - none of the RTL's own assertions fires (Verilator --assert stops the run).
// With FLINT_FUZZ_SELFTEST set the oracle is wrong on purpose (a pop with two or more entries
// left expects a payload one bit off): the fuzzer must report it (scripts/fuzz.py --selftest).
// Built by tb/fuzz/CMakeLists.txt (Verilator --build with clang++-14 -fsanitize=fuzzer).
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "Vcrq_fuzz.h"
#include "model/bbc/crq_bank.hpp"

namespace {

constexpr uint32_t kEntries = 8, kSlots = 2, kWidth = 12;
constexpr uint64_t kMask = (uint64_t{1} << kWidth) - 1;
const bool kSelfTest = std::getenv("FLINT_FUZZ_SELFTEST") != nullptr;

[[noreturn]] void Finding(uint64_t cycle, const char* what, uint64_t want, uint64_t got) {
  std::fprintf(stderr, "fuzz_crq: cycle %llu: %s expected %llu, got %llu\n",
               static_cast<unsigned long long>(cycle), what,
               static_cast<unsigned long long>(want), static_cast<unsigned long long>(got));
  std::abort();
}

void Same(uint64_t cycle, const char* what, uint64_t got, uint64_t want) {
  if (got != want) Finding(cycle, what, want, got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // One model for the whole run, reset at the start of every input (constructing it each time
  // costs 20x the run of a short input). The SRAM words keep what the last input left: the
  // design must not depend on them, and a finding replays alone (the first input of a run).
  static VerilatedContext* ctx = [] {
    auto* c = new VerilatedContext;
    c->randReset(2);
    c->randSeed(1);
    return c;
  }();
  static Vcrq_fuzz* dut = new Vcrq_fuzz(ctx);
  auto reset = [&] {
    dut->rst_ni = 0;
    dut->clk_i = 0;
    dut->eval();
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->rst_ni = 1;
    dut->eval();
  };
  reset();
  flint::model::CrqBank model(kEntries, kSlots);
  std::optional<std::pair<uint32_t, uint64_t>> expect;
  for (size_t i = 0; i + 1 < size; i += 2) {
    const uint64_t cycle = i / 2;
    const uint8_t ctl = data[i];
    if (ctl & 0x10) {  // a reset cycle: both sides start empty
      reset();
      model = flint::model::CrqBank(kEntries, kSlots);
      expect.reset();
      continue;
    }
    const bool app_v = ctl & 1, pop_v = ctl & 4;
    const uint32_t app_slot = (ctl >> 1) & 1, pop_slot = (ctl >> 3) & 1;
    const uint64_t payload = (uint64_t{data[i + 1]} | (static_cast<uint64_t>(ctl >> 5) << 8)) & kMask;
    dut->app_valid_i = app_v;
    dut->app_slot_i = app_slot;
    dut->app_data_i = static_cast<uint32_t>(payload);
    dut->pop_valid_i = pop_v;
    dut->pop_slot_i = pop_slot;
    dut->eval();
    Same(cycle, "rsp_valid_o", dut->rsp_valid_o, expect.has_value());
    if (expect) {
      Same(cycle, "rsp_slot_o", dut->rsp_slot_o, expect->first);
      Same(cycle, "rsp_data_o", dut->rsp_data_o, expect->second);
    }
    expect.reset();
    uint64_t mask = 0;
    for (uint32_t s = 0; s < kSlots; ++s) mask |= static_cast<uint64_t>(!model.Empty(s)) << s;
    Same(cycle, "nonempty_o", dut->nonempty_o, mask);
    Same(cycle, "used_o", dut->used_o, model.used());
    // pop_ready_o is the driven slot's list non-empty, whether or not pop_valid_i is high.
    Same(cycle, "pop_ready_o", dut->pop_ready_o, !model.Empty(pop_slot));
    if (model.used() == kEntries) Same(cycle, "app_ready_o (full)", dut->app_ready_o, 0);
    if (model.used() + 3 <= kEntries) Same(cycle, "app_ready_o (room)", dut->app_ready_o, 1);
    const bool app = app_v && dut->app_ready_o;
    const bool pop = pop_v && dut->pop_ready_o;
    if (pop) {
      expect = std::make_pair(pop_slot, model.Pop(pop_slot));
      // Self-test (scripts/fuzz.py --selftest): a wrong oracle the fuzzer must catch, a pop
      // with two or more other entries queued expecting a payload one bit off.
      if (kSelfTest && model.used() >= 2) expect->second ^= 1;
    }
    if (app) model.Append(app_slot, payload);
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
    if (ctx->gotFinish()) Finding(cycle, "the RTL stopped ($finish or an assertion)", 0, 1);
  }
  return 0;
}
