// Test wrapper: the single-error test (flint_bch_single) on its own ports, so the bench can read
// the generated package first (the Verilated top names it in its parameters).
`default_nettype none
module flint_bch_single_tb #(
  // do not override
  localparam int unsigned M = flint_bch_pkg::BchM,
  localparam int unsigned T = flint_bch_pkg::BchT
) (
  input  logic [T*M-1:0] syn_i,
  output logic           single_o,
  output logic [M-1:0]   pos_o
);
  flint_bch_single u_single (
    .syn_i   (syn_i),
    .single_o(single_o),
    .pos_o   (pos_o)
  );
endmodule
`default_nettype wire
