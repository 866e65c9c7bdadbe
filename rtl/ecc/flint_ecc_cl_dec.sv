// Cache-line SEC-DED decoder on the read response path: Words (72,64) Hsiao decoders in
// parallel, one whole line a cycle, and the line's status for the accelerator response:
//   any word uncorrectable -> StatusUncorrectable
//   else any word corrected -> StatusCorrected
//   else                    -> StatusOk
// Data of a word the code cannot correct is passed as read (no bit flipped on a guess); the
// status marks the whole line bad, and word_uncorrectable_o says which words. The refresh fork
// must not re-encode such a line as good data (docs/ecc.md, "Uncorrectable lines").
// Layout as flint_ecc_cl_enc. Combinational, no state: about 15 gate levels at Words = 16
// (docs/ecc.md, "Timing and area", says when a pipeline stage would be needed).
`default_nettype none
`include "flint_assert.svh"
module flint_ecc_cl_dec #(
  parameter int unsigned Words = flint_cfg_pkg::ClBytes / 8,
  // do not override
  localparam int unsigned DataBits = Words * 64,
  localparam int unsigned CheckBits = Words * 8
) (
  // line as read: main-area bytes and the line's check bytes from the spare area
  input  logic [DataBits-1:0]  data_i,
  input  logic [CheckBits-1:0] check_i,
  // decoded line and its status
  output logic [DataBits-1:0]  data_o,
  output flint_pkg::status_e   status_o,
  // per-word outcome (error counters, refresh hints)
  output logic [Words-1:0]     word_corrected_o,
  output logic [Words-1:0]     word_uncorrectable_o
);
  for (genvar w = 0; w < Words; w++) begin : g_word
    flint_pkg::status_e status;
    logic [7:0] syndrome;
    flint_secded_dec u_dec (
      .data_i    (data_i[w*64 +: 64]),
      .check_i   (check_i[w*8 +: 8]),
      .data_o    (data_o[w*64 +: 64]),
      .status_o  (status),
      .syndrome_o(syndrome)
    );
    assign word_corrected_o[w]     = (status == flint_pkg::StatusCorrected);
    assign word_uncorrectable_o[w] = (status == flint_pkg::StatusUncorrectable);
    logic unused_syndrome;
    assign unused_syndrome = ^syndrome;
  end

  always_comb begin
    if (|word_uncorrectable_o) begin
      status_o = flint_pkg::StatusUncorrectable;
    end else if (|word_corrected_o) begin
      status_o = flint_pkg::StatusCorrected;
    end else begin
      status_o = flint_pkg::StatusOk;
    end
  end

`ifndef SYNTHESIS
  always_comb begin
    a_word_one_outcome: assert final ((word_corrected_o & word_uncorrectable_o) == '0)
      else $error("%m: a word both corrected and uncorrectable");
    a_ok_clean: assert final ((status_o != flint_pkg::StatusOk) ||
                              ((word_corrected_o | word_uncorrectable_o) == '0 &&
                               data_o == data_i))
      else $error("%m: line OK but a word saw an error");
    a_ue_reported: assert final ((word_uncorrectable_o == '0) ||
                                 (status_o == flint_pkg::StatusUncorrectable))
      else $error("%m: an uncorrectable word not reported on the line");
    a_status_legal: assert final (status_o == flint_pkg::StatusOk ||
                                  status_o == flint_pkg::StatusCorrected ||
                                  status_o == flint_pkg::StatusUncorrectable)
      else $error("%m: ECC status outside OK/CORRECTED/UNCORRECTABLE");
  end
  // Each line status (counted at every evaluation: this block has no valid); a line with a
  // corrected word and an uncorrectable one; two words corrected in one line.
  `FLINT_COVER_COMB(c_line_ok, status_o == flint_pkg::StatusOk)
  `FLINT_COVER_COMB(c_line_corrected, status_o == flint_pkg::StatusCorrected)
  `FLINT_COVER_COMB(c_line_uncorrectable, status_o == flint_pkg::StatusUncorrectable)
  `FLINT_COVER_COMB(c_line_mixed, |word_corrected_o && |word_uncorrectable_o)
  `FLINT_COVER_COMB(c_line_two_corrected, $countones(word_corrected_o) > 1)
`endif
endmodule
`default_nettype wire
