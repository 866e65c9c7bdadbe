// Harness of the FuseSoC sim targets (rtl/*/flint_*.core): the core's top (the target names its
// Verilated class with -CFLAGS -DVDUT=V<toplevel>), held in reset for 4 cycles, then clocked
// with idle inputs for +cycles+N cycles (default 100) with its assertions armed; +trace writes
// dut.fst. A top without a clock or reset (the ECC core's combinational line decoder) is
// evaluated with its idle inputs at each half-cycle instead. Exits 1 if an assertion fired. A
// smoke run showing that a core's files simulate on their own; FLINT's behaviour is checked by
// the Catch2 benches under tb/ (make test).
#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#define FLINT_STR2(x) #x
#define FLINT_STR(x) FLINT_STR2(x)
#include FLINT_STR(VDUT.h)
using Vdut = VDUT;

namespace {

// Whether the top has clk_i / rst_ni ports (a combinational top has neither).
template <class T, class = void>
struct HasClock : std::false_type {};
template <class T>
struct HasClock<T, std::void_t<decltype(std::declval<T&>().clk_i)>> : std::true_type {};
template <class T, class = void>
struct HasReset : std::false_type {};
template <class T>
struct HasReset<T, std::void_t<decltype(std::declval<T&>().rst_ni)>> : std::true_type {};

template <class T>
void SetClock(T& dut, bool level) {
  if constexpr (HasClock<T>::value) dut.clk_i = level;
}

template <class T>
void SetReset(T& dut, bool level) {
  if constexpr (HasReset<T>::value) dut.rst_ni = level;
}

}  // namespace

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->fatalOnError(false);
  ctx->traceEverOn(true);
  Vdut dut(ctx.get(), "TOP");
  const char* arg = ctx->commandArgsPlusMatch("cycles+");
  const uint64_t cycles = arg[0] ? std::strtoull(arg + 8, nullptr, 10) : 100;
  std::unique_ptr<VerilatedFstC> fst;
  if (ctx->commandArgsPlusMatch("trace")[0]) {
    fst = std::make_unique<VerilatedFstC>();
    dut.trace(fst.get(), 99);
    fst->open("dut.fst");
  }
  auto tick = [&]() {
    for (int edge = 0; edge < 2; ++edge) {
      SetClock(dut, edge == 0);  // rising edge, then falling
      dut.eval();
      ctx->timeInc(1);
      if (fst) fst->dump(ctx->time());
    }
  };
  SetClock(dut, false);
  SetReset(dut, false);
  dut.eval();
  for (int i = 0; i < 4; ++i) tick();
  SetReset(dut, true);
  for (uint64_t i = 0; i < cycles; ++i) tick();
  dut.final();
  if (fst) fst->close();
  std::printf("flint sim: %llu cycles after reset, %s\n", static_cast<unsigned long long>(cycles),
              ctx->gotError() ? "an assertion fired" : "no assertion fired");
  return ctx->gotError() ? 1 : 0;
}
