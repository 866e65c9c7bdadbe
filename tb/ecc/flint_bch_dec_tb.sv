// Test wrapper: the BCH decoder's slow-path blocks side by side, each on ports of its own so a
// test drives one at a time: Berlekamp-Massey (flint_bch_bm), the Chien search at P = 16
// (flint_bch_chien), and the whole line decoder (flint_bch_dec) at its default P = 8.
`default_nettype none
module flint_bch_dec_tb #(
  // do not override
  localparam int unsigned M     = flint_bch_pkg::BchM,
  localparam int unsigned T     = flint_bch_pkg::BchT,
  localparam int unsigned K     = flint_bch_pkg::BchK,
  localparam int unsigned R     = flint_bch_pkg::BchR,
  localparam int unsigned N     = K + R,
  localparam int unsigned DegW  = $clog2(2 * T + 1),
  localparam int unsigned CntW  = $clog2(N + 1),
  localparam int unsigned NerrW = $clog2(T + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // Berlekamp-Massey
  input  logic                bm_in_valid_i,
  output logic                bm_in_ready_o,
  input  logic [T*M-1:0]      bm_in_syn_i,
  output logic                bm_out_valid_o,
  input  logic                bm_out_ready_i,
  output logic [(T+1)*M-1:0]  bm_out_lambda_o,
  output logic [DegW-1:0]     bm_out_deg_o,
  // Chien search, 16 positions a cycle
  input  logic                ch_in_valid_i,
  output logic                ch_in_ready_o,
  input  logic [(T+1)*M-1:0]  ch_in_lambda_i,
  input  logic [DegW-1:0]     ch_in_deg_i,
  output logic                ch_out_valid_o,
  input  logic                ch_out_ready_i,
  output logic [N-1:0]        ch_out_mask_o,
  output logic [CntW-1:0]     ch_out_count_o,
  output logic                ch_out_uncorr_o,
  // the line decoder
  input  logic                dec_in_valid_i,
  output logic                dec_in_ready_o,
  input  logic [N-1:0]        dec_in_code_i,
  output logic                dec_out_valid_o,
  input  logic                dec_out_ready_i,
  output logic [K-1:0]        dec_out_data_o,
  output flint_pkg::status_e  dec_out_status_o,
  output logic [NerrW-1:0]    dec_out_nerr_o
);
  flint_bch_bm u_bm (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (bm_in_valid_i),
    .in_ready_o  (bm_in_ready_o),
    .in_syn_i    (bm_in_syn_i),
    .out_valid_o (bm_out_valid_o),
    .out_ready_i (bm_out_ready_i),
    .out_lambda_o(bm_out_lambda_o),
    .out_deg_o   (bm_out_deg_o)
  );
  flint_bch_chien #(.P(16)) u_chien (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (ch_in_valid_i),
    .in_ready_o  (ch_in_ready_o),
    .in_lambda_i (ch_in_lambda_i),
    .in_deg_i    (ch_in_deg_i),
    .out_valid_o (ch_out_valid_o),
    .out_ready_i (ch_out_ready_i),
    .out_mask_o  (ch_out_mask_o),
    .out_count_o (ch_out_count_o),
    .out_uncorr_o(ch_out_uncorr_o)
  );
  flint_bch_dec u_dec (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (dec_in_valid_i),
    .in_ready_o  (dec_in_ready_o),
    .in_code_i   (dec_in_code_i),
    .out_valid_o (dec_out_valid_o),
    .out_ready_i (dec_out_ready_i),
    .out_data_o  (dec_out_data_o),
    .out_status_o(dec_out_status_o),
    .out_nerr_o  (dec_out_nerr_o)
  );
endmodule
`default_nettype wire
