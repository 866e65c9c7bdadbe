// Test wrapper: the multi-path BCH line decoder (flint_bch_line_dec) on its own ports, at the
// parameters the bench Verilates it with (-G: the default configuration, and a small one with
// one unit and four slots for back-pressure).
`default_nettype none
module flint_bch_line_dec_tb #(
  parameter int unsigned Units = 3,
  parameter int unsigned P     = 32,
  parameter int unsigned Depth = 64,
  // do not override
  localparam int unsigned K     = flint_bch_pkg::BchK,
  localparam int unsigned N     = flint_bch_pkg::BchN,
  localparam int unsigned NerrW = $clog2(flint_bch_pkg::BchT + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [N-1:0]       in_code_i,
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [K-1:0]       out_data_o,
  output flint_pkg::status_e out_status_o,
  output logic [NerrW-1:0]   out_nerr_o
);
  flint_bch_line_dec #(.Units(Units), .P(P), .Depth(Depth)) u_dec (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_o),
    .in_code_i   (in_code_i),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data_o),
    .out_status_o(out_status_o),
    .out_nerr_o  (out_nerr_o)
  );
endmodule
`default_nettype wire
