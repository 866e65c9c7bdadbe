// Verilator 5.006 evaluated `~((a & b) ^ c) ^ ~d` as its complement (bit-op-tree optimization,
// verilator/verilator#4059): the Yosys netlist of flint_maint_seq then failed its miter
// (docs/verification.md). Every design is Verilated with -fno-const-bit-op-tree
// (cmake/flint.cmake); this exhaustive check fails if the flag is lost while the bug remains.
#include <catch2/catch.hpp>
#include <cstdint>

#include "Vvl_xor_probe.h"
#include "tb/common/harness.hpp"

TEST_CASE("toolchain: Verilator evaluates an XOR tree with two negations", "[common][directed]") {
  flint::tb::Harness<Vvl_xor_probe> h(1);
  auto& d = h.dut();
  int wrong = 0;
  for (uint32_t v = 0; v < 16; ++v) {
    d.a_i = v & 1;
    d.b_i = (v >> 1) & 1;
    d.c_i = (v >> 2) & 1;
    d.d_i = (v >> 3) & 1;
    h.Eval();
    const uint32_t expect = (d.a_i & d.b_i) ^ d.c_i ^ d.d_i;  // the two negations cancel
    if (d.y_o != expect) ++wrong;
  }
  INFO(wrong << " of 16 input combinations wrong: is -fno-const-bit-op-tree still passed?");
  REQUIRE(wrong == 0);
}
