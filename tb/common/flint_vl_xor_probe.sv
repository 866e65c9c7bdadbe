// Toolchain check, not design: the shape of logic on which Verilator 5.006's bit-op-tree
// optimization (V3Const) computes the complement, `~((a & b) ^ c) ^ ~d` (two negations in one
// XOR tree, one of them dropped; verilator/verilator#4059). Yosys wrote exactly this into the
// netlist of flint_maint_seq's line FIFO counter (issue #24 item 6, docs/verification.md), and
// nothing keeps hand-written RTL from it. cmake/flint.cmake Verilates every design with
// -fno-const-bit-op-tree; tb/common/verilator_xor_test.cpp fails if that is ever lost.
`default_nettype none
module flint_vl_xor_probe (
  input  logic a_i,
  input  logic b_i,
  input  logic c_i,
  input  logic d_i,
  output logic y_o
);
  assign y_o = ~((a_i & b_i) ^ c_i) ^ ~d_i;
endmodule
`default_nettype wire
