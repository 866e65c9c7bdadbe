// Test wrapper: the cache-line encoder and decoder at one config's line size, side by side,
// with a clock and reset that only give the harness a time base for waveforms (both blocks are
// combinational).
`default_nettype none
module flint_ecc_cl_tb #(
  parameter int unsigned Words = flint_cfg_pkg::ClBytes / 8,
  // do not override
  localparam int unsigned DataBits = Words * 64,
  localparam int unsigned CheckBits = Words * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // encoder: check bytes of data_i
  input  logic [DataBits-1:0]  data_i,
  output logic [CheckBits-1:0] enc_check_o,
  // decoder: data_i read with check_i
  input  logic [CheckBits-1:0] check_i,
  output logic [DataBits-1:0]  dec_data_o,
  output flint_pkg::status_e   dec_status_o,
  output logic [Words-1:0]     dec_word_corrected_o,
  output logic [Words-1:0]     dec_word_uncorrectable_o
);
  flint_ecc_cl_enc #(
    .Words(Words)
  ) u_enc (
    .data_i (data_i),
    .check_o(enc_check_o)
  );
  flint_ecc_cl_dec #(
    .Words(Words)
  ) u_dec (
    .data_i              (data_i),
    .check_i             (check_i),
    .data_o              (dec_data_o),
    .status_o            (dec_status_o),
    .word_corrected_o    (dec_word_corrected_o),
    .word_uncorrectable_o(dec_word_uncorrectable_o)
  );
  logic unused_clk;
  assign unused_clk = clk_i ^ rst_ni;
endmodule
`default_nettype wire
