// flint_ecc_cl_dec with one pipeline stage on the read response path, for clocks or processes
// where the combinational decode (docs/ecc.md, "Timing") does not fit in the cycle beside the
// cache-buffer mux and the response port. The register sits after the per-word decoders: the
// corrected data and the per-word flags are stored, and the line status (a Words-input OR and
// a priority pick, about 5 gate levels) is formed after the register, which takes the deepest
// few levels off the input-to-register path. Latency 1 cycle, throughput one line a cycle (a
// full stage refills in the cycle it drains). A tag (request id, lane bookkeeping) travels
// with the line. Handshake valid/ready on both sides; valid does not depend on ready, and the
// output holds while out_valid_o && !out_ready_i.
`default_nettype none
`include "flint_assert.svh"
module flint_ecc_cl_dec_reg #(
  parameter int unsigned Words = flint_cfg_pkg::ClBytes / 8,
  parameter int unsigned TagWidth = 1,
  // do not override
  localparam int unsigned DataBits = Words * 64,
  localparam int unsigned CheckBits = Words * 8
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // line as read (main bytes, check bytes) with its tag
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [DataBits-1:0]  in_data_i,
  input  logic [CheckBits-1:0] in_check_i,
  input  logic [TagWidth-1:0]  in_tag_i,
  // decoded line, one cycle later
  output logic                 out_valid_o,
  input  logic                 out_ready_i,
  output logic [DataBits-1:0]  out_data_o,
  output flint_pkg::status_e   out_status_o,
  output logic [Words-1:0]     out_word_corrected_o,
  output logic [Words-1:0]     out_word_uncorrectable_o,
  output logic [TagWidth-1:0]  out_tag_o
);
  logic [DataBits-1:0] dec_data;
  flint_pkg::status_e dec_status;  // unused: the status is formed after the register
  logic [Words-1:0] dec_corrected, dec_uncorrectable;

  flint_ecc_cl_dec #(
    .Words(Words)
  ) u_dec (
    .data_i              (in_data_i),
    .check_i             (in_check_i),
    .data_o              (dec_data),
    .status_o            (dec_status),
    .word_corrected_o    (dec_corrected),
    .word_uncorrectable_o(dec_uncorrectable)
  );

  logic valid_q, valid_d, load;
  assign in_ready_o = !valid_q || out_ready_i;
  assign load = in_valid_i && in_ready_o;
  assign valid_d = in_ready_o ? in_valid_i : valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
    end else begin
      valid_q <= valid_d;
    end
  end

  // Payload needs no reset: it is read only under valid_q.
  logic [DataBits-1:0] data_q;
  logic [Words-1:0] corrected_q, uncorrectable_q;
  logic [TagWidth-1:0] tag_q;
  always_ff @(posedge clk_i) begin
    if (load) begin
      data_q          <= dec_data;
      corrected_q     <= dec_corrected;
      uncorrectable_q <= dec_uncorrectable;
      tag_q           <= in_tag_i;
    end
  end

  // The same reduction as flint_ecc_cl_dec, on the registered flags.
  always_comb begin
    if (|uncorrectable_q) begin
      out_status_o = flint_pkg::StatusUncorrectable;
    end else if (|corrected_q) begin
      out_status_o = flint_pkg::StatusCorrected;
    end else begin
      out_status_o = flint_pkg::StatusOk;
    end
  end
  logic unused_dec_status;
  assign unused_dec_status = ^dec_status;

  assign out_valid_o              = valid_q;
  assign out_data_o               = data_q;
  assign out_word_corrected_o     = corrected_q;
  assign out_word_uncorrectable_o = uncorrectable_q;
  assign out_tag_o                = tag_q;

`ifndef SYNTHESIS
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && out_data_o == $past(out_data_o) &&
                      out_status_o == $past(out_status_o) && out_tag_o == $past(out_tag_o))
  `FLINT_ASSERT_IMPLY(a_out_ue_flagged, out_valid_o && (|out_word_uncorrectable_o),
                      out_status_o == flint_pkg::StatusUncorrectable)
  // The status formed after the register is the one the combinational decoder gave on entry.
  flint_pkg::status_e entry_status_q;
  always_ff @(posedge clk_i) begin
    if (load) entry_status_q <= dec_status;
  end
  `FLINT_ASSERT_IMPLY(a_status_as_decoded, out_valid_o, out_status_o == entry_status_q)
  `FLINT_COVER(c_backpressure, out_valid_o && !out_ready_i && in_valid_i)
  `FLINT_COVER(c_stream, load && out_valid_o && out_ready_i)
  // Each status leaving the stage.
  `FLINT_COVER(c_out_ok, out_valid_o && out_status_o == flint_pkg::StatusOk)
  `FLINT_COVER(c_out_corrected, out_valid_o && out_status_o == flint_pkg::StatusCorrected)
  `FLINT_COVER(c_out_uncorrectable, out_valid_o &&
                                    out_status_o == flint_pkg::StatusUncorrectable)
`endif
endmodule
`default_nettype wire
