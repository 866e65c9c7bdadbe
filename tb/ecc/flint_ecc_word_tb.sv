// Test wrapper: one (72,64) encoder and one decoder, side by side, with a clock and reset that
// only give the harness a time base for waveforms (both blocks are combinational).
`default_nettype none
module flint_ecc_word_tb (
  input  logic               clk_i,
  input  logic               rst_ni,
  // encoder: check byte of data_i
  input  logic [63:0]        data_i,
  output logic [7:0]         enc_check_o,
  // decoder: data_i read with check_i
  input  logic [7:0]         check_i,
  output logic [63:0]        dec_data_o,
  output flint_pkg::status_e dec_status_o,
  output logic [7:0]         dec_syndrome_o
);
  flint_secded_enc u_enc (
    .data_i (data_i),
    .check_o(enc_check_o)
  );
  flint_secded_dec u_dec (
    .data_i    (data_i),
    .check_i   (check_i),
    .data_o    (dec_data_o),
    .status_o  (dec_status_o),
    .syndrome_o(dec_syndrome_o)
  );
  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;
endmodule
`default_nettype wire
