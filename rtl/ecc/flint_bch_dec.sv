// BCH line decoder (issue #26 item 2; docs/ecc.md, "The BCH decoder's slow path"): a received
// codeword of the NAND-grade line code (binary BCH over GF(2^11), t = 11, 1145 bits) in, its
// 1024 data bits out, corrected, with a status: StatusOk (clean), StatusCorrected (with the
// number of bits flipped, parity bits included, as model/ecc/bch counts them), or
// StatusUncorrectable (data exactly as read).
//
// Path of a line: the syndromes (flint_bch_syn, combinational on in_code_i) decide when the line
// is taken. All zero: the fast path, the data goes straight to the output register. Otherwise
// the slow path: flint_bch_bm (the error locator and its length L) then flint_bch_chien (its
// roots among the 1145 positions, P a cycle), and the data bits at the roots are flipped into
// the output register unless the search calls the line uncorrectable (L > T, or fewer roots
// than L in the shortened length).
//
// One line at a time: the next line is taken only when the slow path is idle and the output
// register is empty or being emptied in the same cycle, so responses leave in the order the
// lines came and none is dropped. Fast-path lines stream at one a cycle.
//
// Latency, from the cycle c a line is taken (in_valid_i && in_ready_o) to the first cycle its
// response is valid: fast path c + 1; slow path c + 2T + 1 (flint_bch_bm: 23 for T = 11) +
// ceil(N/P) + 2 (flint_bch_chien: 146 for P = 8) + 1 (the output register) = c + 170 at the
// defaults, and c + 25 when L > T (no search). While a line is on the slow path in_ready_o is
// low.
//
// The syndrome unit sits on the input: its XOR trees (about 10 XOR2 levels, then a 121-input OR)
// are in the path from in_code_i to the state register; see flint_bch_syn for why it has no
// register of its own.
`default_nettype none
`include "flint_assert.svh"
module flint_bch_dec #(
  parameter int unsigned P = 8,  // Chien positions a cycle
  // do not override
  localparam int unsigned M    = flint_bch_pkg::BchM,
  localparam int unsigned T    = flint_bch_pkg::BchT,
  localparam int unsigned K    = flint_bch_pkg::BchK,
  localparam int unsigned R    = flint_bch_pkg::BchR,
  localparam int unsigned N    = K + R,
  localparam int unsigned DegW = $clog2(2 * T + 1),
  localparam int unsigned CntW = $clog2(N + 1),
  localparam int unsigned NerrW = $clog2(T + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // received codewords: {data, parity}, code bit i at in_code_i[i]
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [N-1:0]        in_code_i,
  // decoded lines: data, status, bits flipped (StatusCorrected only, else 0)
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [K-1:0]        out_data_o,
  output flint_pkg::status_e  out_status_o,
  output logic [NerrW-1:0]    out_nerr_o
);
  // Syndromes of the line on the input.
  logic [T*M-1:0] syn;
  logic syn_zero;
  flint_bch_syn u_syn (
    .code_i(in_code_i),
    .syn_o (syn),
    .zero_o(syn_zero)
  );

  logic slow_q, slow_d;  // a line is on the slow path
  logic out_valid_q, out_valid_d;
  flint_pkg::status_e status_q, status_d;
  logic [NerrW-1:0] nerr_q, nerr_d;
  logic [K-1:0] data_q, data_d;  // the line's data while it is on the slow path, then the response

  logic take, drain;
  assign in_ready_o = !slow_q && (!out_valid_q || out_ready_i);
  assign take = in_valid_i && in_ready_o;
  assign drain = out_valid_q && out_ready_i;

  // Berlekamp-Massey: takes the syndromes of a line that is not clean, when it is taken. Its
  // valid follows out_ready_i through in_ready_o (an exception to "valid never depends on
  // ready", inside this module only): the unit is idle whenever in_ready_o can be high (checked
  // below), and its in_ready_o is a state decode, so no loop closes. Gating the take on the
  // output register being free keeps data_q a single register for the line and the response.
  logic bm_in_valid, bm_in_ready, bm_out_valid, bm_out_ready;
  logic [(T+1)*M-1:0] bm_lambda;
  logic [DegW-1:0] bm_deg;
  assign bm_in_valid = take && !syn_zero;
  flint_bch_bm u_bm (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (bm_in_valid),
    .in_ready_o  (bm_in_ready),
    .in_syn_i    (syn),
    .out_valid_o (bm_out_valid),
    .out_ready_i (bm_out_ready),
    .out_lambda_o(bm_lambda),
    .out_deg_o   (bm_deg)
  );

  // Chien search: its result goes into the output register, which is empty while slow_q.
  logic ch_out_valid, ch_out_ready, ch_uncorr;
  logic [N-1:0] ch_mask;
  logic [CntW-1:0] ch_count;
  assign ch_out_ready = slow_q;
  flint_bch_chien #(.P(P)) u_chien (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (bm_out_valid),
    .in_ready_o  (bm_out_ready),
    .in_lambda_i (bm_lambda),
    .in_deg_i    (bm_deg),
    .out_valid_o (ch_out_valid),
    .out_ready_i (ch_out_ready),
    .out_mask_o  (ch_mask),
    .out_count_o (ch_count),
    .out_uncorr_o(ch_uncorr)
  );

  always_comb begin
    slow_d = slow_q;
    out_valid_d = out_valid_q;
    status_d = status_q;
    nerr_d = nerr_q;
    data_d = data_q;
    if (drain) out_valid_d = 1'b0;
    if (take) begin
      data_d = in_code_i[R +: K];
      if (syn_zero) begin
        out_valid_d = 1'b1;
        status_d = flint_pkg::StatusOk;
        nerr_d = '0;
      end else begin
        slow_d = 1'b1;
      end
    end
    if (ch_out_valid && ch_out_ready) begin
      slow_d = 1'b0;
      out_valid_d = 1'b1;
      if (ch_uncorr) begin
        status_d = flint_pkg::StatusUncorrectable;
        nerr_d = '0;
      end else begin
        status_d = flint_pkg::StatusCorrected;
        nerr_d = NerrW'(ch_count);
        data_d = data_q ^ ch_mask[R +: K];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slow_q <= 1'b0;
      out_valid_q <= 1'b0;
      status_q <= flint_pkg::StatusOk;
      nerr_q <= '0;
    end else begin
      slow_q <= slow_d;
      out_valid_q <= out_valid_d;
      status_q <= status_d;
      nerr_q <= nerr_d;
    end
  end

  // The line's data: no reset (written when a line is taken, read only after).
  always_ff @(posedge clk_i) begin
    data_q <= data_d;
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o = data_q;
  assign out_status_o = status_q;
  assign out_nerr_o = nerr_q;

  logic unused_mask;
  assign unused_mask = ^{ch_mask[R-1:0], ch_count[CntW-1:NerrW]};

`ifndef SYNTHESIS
  // A line taken for the slow path finds Berlekamp-Massey idle; the search's result finds the
  // output register empty.
  `FLINT_ASSERT_IMPLY(a_bm_ready, bm_in_valid, bm_in_ready)
  `FLINT_ASSERT_IMPLY(a_chien_out_empty, ch_out_valid && ch_out_ready, !out_valid_q)
  // A corrected line flipped between 1 and T bits.
  `FLINT_ASSERT_IMPLY(a_nerr_range, out_valid_o && out_status_o == flint_pkg::StatusCorrected,
                      out_nerr_o != '0 && 32'(out_nerr_o) <= T)
  `FLINT_ASSERT_IMPLY(a_nerr_zero, out_valid_o && out_status_o != flint_pkg::StatusCorrected,
                      out_nerr_o == '0)
  // The response holds still until it is taken.
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && $stable(out_data_o) && $stable(out_status_o)
                      && $stable(out_nerr_o))
`endif
endmodule
`default_nettype wire
