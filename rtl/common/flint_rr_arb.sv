// Round-robin arbiter: N requesters (any N >= 1) share one valid/ready output.
// out_valid_o is high while any request is; gnt_o (one-hot) and out_idx_o name the winner, and
// requester i transfers when gnt_o[i] && out_ready_i. Only a requester is ever granted.
// Priority starts just after the winner of the last transfer and wraps round, so a requester
// that keeps requesting waits for at most N-1 transfers of others. The priority moves only on
// a transfer. While the output stalls (valid && !ready) the decision is held, so the winner and
// out_idx_o stay stable as valid/ready asks even if a higher-priority request arrives; the hold
// ends if the winner withdraws its request (the arbiter then decides afresh from the unmoved
// priority).
// Combinational from req_i to gnt_o/out_idx_o/out_valid_o (no latency); out_valid_o never
// depends on out_ready_i.
`default_nettype none
`include "flint_assert.svh"
module flint_rr_arb #(
  parameter int unsigned N = 4,
  // do not override
  localparam int unsigned IdxBits = (N > 1) ? $clog2(N) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // requests
  input  logic [N-1:0]       req_i,
  // grant: the winner, one-hot and as an index, and the shared output's handshake
  output logic [N-1:0]       gnt_o,
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [IdxBits-1:0] out_idx_o
);
  logic [IdxBits-1:0] prio_q, prio_d;  // requester with the highest priority
  logic hold_q;  // the last cycle stalled: keep its winner
  logic [IdxBits-1:0] last_idx_q;
  logic found_hi;
  logic [IdxBits-1:0] idx_hi, idx_lo, pick;
  logic transfer;

  // The winner is the lowest-indexed request at or above prio_q; failing that (wrap round),
  // the lowest-indexed request of all.
  always_comb begin
    found_hi = 1'b0;
    idx_hi   = '0;
    idx_lo   = '0;
    for (int i = N - 1; i >= 0; i = i - 1) begin
      if (req_i[i]) begin
        idx_lo = IdxBits'(i);
        if (IdxBits'(i) >= prio_q) begin
          found_hi = 1'b1;
          idx_hi   = IdxBits'(i);
        end
      end
    end
    pick = found_hi ? idx_hi : idx_lo;
    if (hold_q && req_i[last_idx_q]) pick = last_idx_q;
  end

  assign out_valid_o = |req_i;
  assign out_idx_o   = pick;
  assign gnt_o       = out_valid_o ? (N'(1) << pick) : '0;
  assign transfer    = out_valid_o && out_ready_i;
  assign prio_d      = !transfer ? prio_q : (pick == IdxBits'(N - 1)) ? '0 : pick + 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q     <= '0;
      hold_q     <= 1'b0;
      last_idx_q <= '0;
    end else begin
      prio_q     <= prio_d;
      hold_q     <= out_valid_o && !out_ready_i;
      last_idx_q <= pick;
    end
  end

`ifndef SYNTHESIS
  `FLINT_ASSERT(a_gnt_onehot0, $onehot0(gnt_o))
  `FLINT_ASSERT(a_gnt_only_requester, (gnt_o & ~req_i) == '0)
  `FLINT_ASSERT(a_valid_iff_gnt, out_valid_o == (gnt_o != '0))
  `FLINT_ASSERT_IMPLY(a_idx_names_gnt, out_valid_o, 32'(out_idx_o) < N && gnt_o[out_idx_o])
  `FLINT_ASSERT(a_prio_in_range, 32'(prio_q) < N)
  // Payload stable under a stall, as long as the winner keeps requesting (a reset in between
  // clears the decision).
  `FLINT_ASSERT_IMPLY(a_idx_stable,
                      $past(rst_ni) && $past(out_valid_o && !out_ready_i)
                      && req_i[$past(out_idx_o)],
                      out_idx_o == $past(out_idx_o))
  `FLINT_ASSERT_IMPLY(a_prio_moves_on_transfer_only, !$past(transfer), prio_q == $past(prio_q))

  // Fairness, checked where it is promised: while requester i keeps requesting, count the
  // transfers won by others; more than N-1 would be starvation.
  for (genvar g = 0; g < N; g++) begin : g_fair
    logic [31:0] others_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) others_q <= '0;
      else if (!req_i[g] || (transfer && gnt_o[g])) others_q <= '0;
      else if (transfer) others_q <= others_q + 1;
    end
    `FLINT_ASSERT(a_fair, others_q <= N - 1)
  end
  `FLINT_COVER(c_hold_beats_priority, hold_q && req_i[last_idx_q] && found_hi
                                      && idx_hi != last_idx_q)
  `FLINT_COVER(c_contended, transfer && $countones(req_i) > 1)
`endif
endmodule
`default_nettype wire
