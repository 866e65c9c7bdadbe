// libFuzzer target: the Verilated CRQ bank (rtl/bbc/flint_bbc_crq_bank.sv, a tiny geometry:
// 8 entries, 2 slots, 12-bit payloads) against its golden model (model/bbc/crq_bank.hpp), the
// fuzzer's bytes as its input stream: two bytes a cycle, the first the handshakes (bit 0 append,
// bit 1 its slot, bit 2 pop, bit 3 its slot; bit 4 asserts reset for the cycle, which also
// empties the model), the second the payload's low byte (bits 5-7 of the first give its bits 8-10).
// What must hold, or the target aborts (a finding): the checks of tb/mutate/crq_oracle.hpp
// (the block bench's rules) every cycle, and none of the RTL's own assertions fires
// (Verilator --assert stops the run).
// With FLINT_FUZZ_SELFTEST set the oracle is wrong on purpose (a pop with two or more entries
// left expects a payload one bit off): the fuzzer must report it (scripts/fuzz.py --selftest).
// Built by tb/fuzz/CMakeLists.txt (Verilator --build with clang++-14 -fsanitize=fuzzer).
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "Vcrq_fuzz.h"
#include "tb/mutate/crq_oracle.hpp"

namespace {

constexpr uint32_t kEntries = 8, kSlots = 2, kWidth = 12;
const bool kSelfTest = std::getenv("FLINT_FUZZ_SELFTEST") != nullptr;

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
  static flint::tb::CrqOracle<Vcrq_fuzz> oracle(dut, kEntries, kSlots, kWidth);
  oracle.Reset();
  for (size_t i = 0; i + 1 < size; i += 2) {
    const uint8_t ctl = data[i];
    if (ctl & 0x10) {  // a reset cycle: both sides start empty
      oracle.Reset();
      continue;
    }
    flint::tb::CrqOp op;
    op.app = ctl & 1;
    op.app_slot = (ctl >> 1) & 1;
    op.pop = ctl & 4;
    op.pop_slot = (ctl >> 3) & 1;
    op.payload = data[i + 1] | (static_cast<uint64_t>(ctl >> 5) << 8);
    const std::string err = oracle.Step(op, kSelfTest);
    if (!err.empty()) {
      std::fprintf(stderr, "fuzz_crq: cycle %zu: %s\n", i / 2, err.c_str());
      std::abort();
    }
    if (ctx->gotFinish()) {
      std::fprintf(stderr, "fuzz_crq: cycle %zu: the RTL stopped (an assertion)\n", i / 2);
      std::abort();
    }
  }
  return 0;
}
