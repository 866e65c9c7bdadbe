// Harness of the FuseSoC sim targets (rtl/*/flint_*.core): the core's top (the target names its
// Verilated class with -CFLAGS -DVDUT=V<toplevel>), held in reset for 4 cycles, then clocked with idle inputs for +cycles+N cycles (default 100)
// with its assertions armed; +trace writes dut.fst. Exits 1 if an assertion fired. A smoke run
// showing that a core's files simulate on their own; FLINT's behaviour is checked by the
// Catch2 benches under tb/ (make test).
#include <verilated.h>
#include <verilated_fst_c.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#define FLINT_STR2(x) #x
#define FLINT_STR(x) FLINT_STR2(x)
#include FLINT_STR(VDUT.h)
using Vdut = VDUT;

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
      dut.clk_i = !dut.clk_i;
      dut.eval();
      ctx->timeInc(1);
      if (fst) fst->dump(ctx->time());
    }
  };
  dut.clk_i = 0;
  dut.rst_ni = 0;
  dut.eval();
  for (int i = 0; i < 4; ++i) tick();
  dut.rst_ni = 1;
  for (uint64_t i = 0; i < cycles; ++i) tick();
  dut.final();
  if (fst) fst->close();
  std::printf("flint sim: %llu cycles after reset, %s\n", static_cast<unsigned long long>(cycles),
              ctx->gotError() ? "an assertion fired" : "no assertion fired");
  return ctx->gotError() ? 1 : 0;
}
