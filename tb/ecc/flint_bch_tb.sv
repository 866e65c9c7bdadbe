// Test wrapper: the BCH line encoder and syndrome unit side by side, with a clock and reset that
// only give the harness a time base for waveforms (both blocks are combinational).
`default_nettype none
module flint_bch_tb #(
  // do not override
  localparam int unsigned M = flint_bch_pkg::BchM,
  localparam int unsigned T = flint_bch_pkg::BchT,
  localparam int unsigned K = flint_bch_pkg::BchK,
  localparam int unsigned R = flint_bch_pkg::BchR,
  localparam int unsigned N = K + R
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // encoder: parity of data_i
  input  logic [K-1:0]   data_i,
  output logic [R-1:0]   enc_parity_o,
  // syndrome unit: odd syndromes of code_i, all zero
  input  logic [N-1:0]   code_i,
  output logic [T*M-1:0] syn_o,
  output logic           syn_zero_o
);
  flint_bch_enc u_enc (
    .data_i  (data_i),
    .parity_o(enc_parity_o)
  );
  flint_bch_syn u_syn (
    .code_i(code_i),
    .syn_o (syn_o),
    .zero_o(syn_zero_o)
  );
  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;
endmodule
`default_nettype wire
