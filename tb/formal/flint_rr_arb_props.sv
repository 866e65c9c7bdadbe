// Formal property wrapper of flint_rr_arb (docs/formal.md; run by scripts/formal.py).
// Besides the arbiter's own assertions (one-hot grant to a requester only, index names the
// grant, decision held under a stall, priority moves on a transfer only, and a_fair: a requester
// that keeps requesting sees at most N-1 transfers of others) it proves, by induction:
//   - the pick is the round-robin one: unless a stalled decision is held, the winner is the first
//     requester at or after the priority pointer, cyclically;
//   - bounded wait, in the wrapper's own terms: a requester that keeps requesting is granted
//     a transfer within N transfers.
// tap_* inputs are bound by scripts/formal.py to the arbiter's internal registers.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_rr_arb_props #(
  parameter int unsigned N = 3,
  // do not override
  localparam int unsigned IdxBits = (N > 1) ? $clog2(N) : 1
) (
  input logic               clk_i,
  input logic               rst_ni,
  input logic [N-1:0]       req_i,
  input logic               out_ready_i,
  // bound to internals by scripts/formal.py
  input logic [IdxBits-1:0] tap_prio,
  input logic               tap_hold,
  input logic [IdxBits-1:0] tap_last,
  input logic [N*32-1:0]    tap_others  // requester g's a_fair counter at [g*32 +: 32]
);
  logic [N-1:0] gnt;
  logic out_valid;
  logic [IdxBits-1:0] out_idx;

  flint_rr_arb #(.N(N)) u_dut (
    .clk_i,
    .rst_ni,
    .req_i,
    .gnt_o      (gnt),
    .out_valid_o(out_valid),
    .out_ready_i,
    .out_idx_o  (out_idx)
  );

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  // Environment: a requester keeps its request until granted a transfer (the valid/ready rule of
  // STYLE.md); the property below holds for any pattern, but the round-robin promise is made to
  // requesters that wait.
  logic transfer;
  assign transfer = out_valid && out_ready_i;

  // (p + d) mod N in narrow arithmetic, p < N, d < N.
  function automatic logic [IdxBits-1:0] nxt(input logic [IdxBits-1:0] p,
                                              input logic [IdxBits-1:0] d);
    logic [IdxBits:0] s;
    s = (IdxBits + 1)'(p) + (IdxBits + 1)'(d);
    if (s >= (IdxBits + 1)'(N)) s = s - (IdxBits + 1)'(N);
    nxt = IdxBits'(s);
  endfunction

  // The round-robin reference: first requester at or after prio, cyclically.
  logic [IdxBits-1:0] ref_pick;
  always @(*) begin
    ref_pick  = '0;
    for (int d = N - 1; d >= 0; d--) begin
      if (req_i[32'(nxt(tap_prio, IdxBits'(d)))]) begin
        ref_pick  = nxt(tap_prio, IdxBits'(d));
      end
    end
  end

  // Cyclic distance from the priority pointer to requester g.
  function automatic logic [IdxBits:0] cdist(input logic [IdxBits-1:0] p, input int g);
    cdist = (32'(p) <= g) ? (IdxBits + 1)'(g - 32'(p)) : (IdxBits + 1)'(g + N - 32'(p));
  endfunction

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
`ifndef BREAK_PROP
      if (out_valid && !(tap_hold && req_i[tap_last])) a_rr_pick: assert (out_idx == ref_pick);
`else
      // Broken on purpose: claims the lowest-indexed requester always wins (fixed priority).
      if (out_valid && !(tap_hold && req_i[tap_last])) a_rr_pick: assert (gnt[0] || !req_i[0]);
`endif
      a_prio_range: assert (32'(tap_prio) < N);
      a_last_range: assert (32'(tap_last) < N);
    end
  end
  // Bounded wait, counted here: transfers of others while requester g waits.
  for (genvar g = 0; g < N; g++) begin : g_wait
    logic [IdxBits:0] wait_q;
    always @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) wait_q <= '0;
      else if (!req_i[g] || (transfer && gnt[g])) wait_q <= '0;
      else if (transfer) wait_q <= wait_q + 1'b1;
    end
    always @(posedge clk_i) begin
      if (rst_ni && !f_init_q) begin
        assert (32'(wait_q) <= N - 1);
        assert (32'(wait_q) + 32'(cdist(tap_prio, g)) <= N - 1);
        // The arbiter's own a_fair counter counts the same transfers.
        assert (tap_others[g*32 +: 32] == 32'(wait_q));
      end
    end
  end
endmodule
`default_nettype wire
