// Formal property wrapper of flint_bbc_crq_bank (docs/formal.md; run by scripts/formal.py).
// "Every accepted request is answered exactly once", for one request the solver chooses (pick_i
// on its append), proven by induction:
//   - while it is queued, its slot is non-empty (the server may pop it) and exactly `ahead`
//     requests of its slot are in front of it, `ahead` counting down with every pop of the slot;
//   - the pop that finds nothing in front of it answers it: in the next cycle rsp_valid_o with its
//     slot and its payload (never lost, never corrupted);
//   - it is in exactly one of: not yet accepted, queued, being answered, answered (queued xor
//     answered), and once answered it is never answered again (its entry is not handed out twice:
//     see the partition below).
// The induction rests on the bank's whole structure, asserted as an invariant: the Entries entry
// indices are a partition of {the slots' lists (walked from the head, through the next-pointer
// SRAM, `cnt` steps, ending at the tail), the free FIFO's window, the read in flight, the prefetch
// buffer, the indices the bump pointer has not handed out}: each index in exactly one place.
// Shadow per-slot counts from the handshakes are checked against nonempty_o and used_o.
// tap_* inputs are bound by scripts/formal.py to the bank's internal registers and SRAM words.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_bbc_crq_bank_props #(
  parameter int unsigned Entries = 4,
  parameter int unsigned Slots   = 2,
  parameter int unsigned Width   = 2,
  // do not override
  localparam int unsigned IdxBits  = (Entries > 1) ? $clog2(Entries) : 1,
  localparam int unsigned SlotBits = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int unsigned CntBits  = $clog2(Entries + 1)
) (
  input logic                       clk_i,
  input logic                       rst_ni,
  input logic                       app_valid_i,
  input logic [SlotBits-1:0]        app_slot_i,
  input logic [Width-1:0]           app_data_i,
  input logic                       pop_valid_i,
  input logic [SlotBits-1:0]        pop_slot_i,
  input logic                       pick_i,      // track the request appended in this cycle
  // bound to internals by scripts/formal.py
  input logic [Slots*IdxBits-1:0]   tap_head,
  input logic [Slots*IdxBits-1:0]   tap_tail,
  input logic [Slots*CntBits-1:0]   tap_cnt,
  input logic                       tap_pend,
  input logic [SlotBits-1:0]        tap_pend_slot,
  input logic [CntBits-1:0]         tap_bump,
  input logic [IdxBits-1:0]         tap_frd,
  input logic [IdxBits-1:0]         tap_fwr,
  input logic [CntBits-1:0]         tap_fcnt,
  input logic                       tap_fin,
  input logic [1:0]                 tap_ob_n,
  input logic [IdxBits-1:0]         tap_ob0,
  input logic [IdxBits-1:0]         tap_ob1,
  input logic [IdxBits-1:0]         tap_app_idx,
  input logic [IdxBits-1:0]         tap_next_rd,  // next-pointer SRAM's read register
  input logic [IdxBits-1:0]         tap_free_rd,  // free FIFO SRAM's read register
  input logic [Entries*IdxBits-1:0] tap_next,     // next-pointer SRAM words
  input logic [Entries*IdxBits-1:0] tap_free,     // free FIFO SRAM words
  input logic [Entries*Width-1:0]   tap_pay       // payload SRAM words
);
  logic app_ready, pop_ready, rsp_valid;
  logic [SlotBits-1:0] rsp_slot;
  logic [Width-1:0] rsp_data;
  logic [Slots-1:0] nonempty;
  logic [CntBits-1:0] used;

  flint_bbc_crq_bank #(.Entries(Entries), .Slots(Slots), .Width(Width)) u_dut (
    .clk_i,
    .rst_ni,
    .app_valid_i,
    .app_ready_o(app_ready),
    .app_slot_i,
    .app_data_i,
    .pop_valid_i,
    .pop_ready_o(pop_ready),
    .pop_slot_i,
    .rsp_valid_o(rsp_valid),
    .rsp_slot_o (rsp_slot),
    .rsp_data_o (rsp_data),
    .nonempty_o (nonempty),
    .used_o     (used)
  );

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  logic app_fire, pop_fire;
  assign app_fire = app_valid_i && app_ready;
  assign pop_fire = pop_valid_i && pop_ready;

  // --- shadow counts (from the handshakes alone): slot s at [s*CntBits +: CntBits] ------------
  logic [Slots*CntBits-1:0] scnt_q;
  logic [CntBits-1:0] ssum;
  logic [Slots-1:0] snonempty;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scnt_q <= '0;
    end else begin
      for (int s = 0; s < Slots; s++) begin
        scnt_q[s*CntBits +: CntBits] <= scnt_q[s*CntBits +: CntBits]
                                        + CntBits'(app_fire && app_slot_i == SlotBits'(s))
                                        - CntBits'(pop_fire && pop_slot_i == SlotBits'(s));
      end
    end
  end
  always @(*) begin
    ssum = '0;
    for (int s = 0; s < Slots; s++) begin
      ssum = ssum + scnt_q[s*CntBits +: CntBits];
      snonempty[s] = scnt_q[s*CntBits +: CntBits] != '0;
    end
  end
  function automatic logic [CntBits-1:0] scnt(input logic [SlotBits-1:0] s);
    scnt = scnt_q[s*CntBits +: CntBits];
  endfunction

  // --- the tracked request ---------------------------------------------------------------------
  logic               trk_q;   // queued
  logic               ans_q;   // popped last cycle: being answered now
  logic               done_q;  // answered
  logic [SlotBits-1:0] tslot_q;
  logic [IdxBits-1:0]  tidx_q;  // its entry (ghost: the bank's app_idx when it was accepted)
  logic [Width-1:0]    tdat_q;
  logic [CntBits-1:0]  ahead_q;
  logic start, tpop;
  assign start = app_fire && pick_i && !trk_q && !ans_q && !done_q;
  assign tpop  = trk_q && pop_fire && pop_slot_i == tslot_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trk_q   <= 1'b0;
      ans_q   <= 1'b0;
      done_q  <= 1'b0;
      tslot_q <= '0;
      tidx_q  <= '0;
      tdat_q  <= '0;
      ahead_q <= '0;
    end else begin
      ans_q <= 1'b0;
      if (ans_q) done_q <= 1'b1;
      if (start) begin
        trk_q   <= 1'b1;
        tslot_q <= app_slot_i;
        tidx_q  <= tap_app_idx;
        tdat_q  <= app_data_i;
        // In front of it: its slot's requests after this cycle's pop of that slot, if any.
        ahead_q <= scnt(app_slot_i) - CntBits'(pop_fire && pop_slot_i == app_slot_i);
      end
      if (tpop) begin
        if (ahead_q == '0) begin
          trk_q <= 1'b0;
          ans_q <= 1'b1;
        end else begin
          ahead_q <= ahead_q - 1'b1;
        end
      end
    end
  end

  // --- the structure: every index in exactly one place -----------------------------------------
  // Entries must be a power of two here (the free FIFO's window wraps by truncation).
  function automatic logic [IdxBits-1:0] nxt_of(input logic [IdxBits-1:0] i);
    nxt_of = tap_next[i*IdxBits +: IdxBits];
  endfunction

  // walk: entry j of slot s's list at [(s*Entries + j)*IdxBits +: IdxBits], from the head (the
  // pending head is the next-pointer SRAM's read register).
  logic [Slots*Entries*IdxBits-1:0] walk;
  logic [Entries*8-1:0] occ;  // places index x is found in, at [x*8 +: 8] (wide: no wrap)
  logic [IdxBits-1:0] cur, tracked_here, fpos;
  logic [7:0] n;
  logic tails_ok, tracked_at;
  always @(*) begin
    walk = '0;
    for (int s = 0; s < Slots; s++) begin
      cur = (tap_pend && tap_pend_slot == SlotBits'(s)) ? tap_next_rd : tap_head[s*IdxBits +: IdxBits];
      for (int j = 0; j < Entries; j++) begin
        walk[(s*Entries + j)*IdxBits +: IdxBits] = cur;
        cur = nxt_of(cur);
      end
    end
    tails_ok = 1'b1;
    for (int s = 0; s < Slots; s++) begin
      for (int j = 0; j < Entries; j++) begin
        if (tap_cnt[s*CntBits +: CntBits] == CntBits'(j + 1) &&
            walk[(s*Entries + j)*IdxBits +: IdxBits] != tap_tail[s*IdxBits +: IdxBits]) begin
          tails_ok = 1'b0;
        end
      end
    end
    tracked_here = '0;
    for (int s = 0; s < Slots; s++) begin
      for (int j = 0; j < Entries; j++) begin
        if (tslot_q == SlotBits'(s) && ahead_q == CntBits'(j)) begin
          tracked_here = walk[(s*Entries + j)*IdxBits +: IdxBits];
        end
      end
    end
    tracked_at = ahead_q < CntBits'(Entries) && tracked_here == tidx_q;
    occ = '0;
    for (int x = 0; x < Entries; x++) begin
      n = '0;
      for (int s = 0; s < Slots; s++) begin
        for (int j = 0; j < Entries; j++) begin
          if (CntBits'(j) < tap_cnt[s*CntBits +: CntBits] &&
              walk[(s*Entries + j)*IdxBits +: IdxBits] == IdxBits'(x)) n = n + 1'b1;
        end
      end
      for (int j = 0; j < Entries; j++) begin
        fpos = tap_frd + IdxBits'(j);  // wraps at Entries (a power of two)
        if (CntBits'(j) < tap_fcnt && tap_free[fpos*IdxBits +: IdxBits] == IdxBits'(x)) begin
          n = n + 1'b1;
        end
      end
      if (tap_fin && tap_free_rd == IdxBits'(x)) n = n + 1'b1;
      if (tap_ob_n != 2'd0 && tap_ob0 == IdxBits'(x)) n = n + 1'b1;
      if (tap_ob_n == 2'd2 && tap_ob1 == IdxBits'(x)) n = n + 1'b1;
      if (CntBits'(x) >= tap_bump) n = n + 1'b1;
      occ[x*8 +: 8] = n;
    end
  end

  // The free FIFO's write pointer, fcnt past the read pointer. A variable, not an expression in
  // the assertion: Yosys 0.23 lets a truncating cast's operand widen the expression around it
  // (`a + 2'(c)` with a 3-bit c is computed in 3 bits), docs/formal.md "Flow".
  logic [IdxBits-1:0] fwr_exp;
  assign fwr_exp = tap_frd + IdxBits'(tap_fcnt);

  // Each index in exactly one place (no label: one per index).
  for (genvar x = 0; x < Entries; x++) begin : g_partition
    always @(posedge clk_i) if (rst_ni && !f_init_q) assert (occ[x*8 +: 8] == 8'd1);
  end

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      // The interface.
      a_used_is_shadow: assert (used == ssum);
      a_nonempty_is_shadow: assert (nonempty == snonempty);
      // The tracked request.
      a_one_state: assert ($onehot0({trk_q, ans_q, done_q}));
      if (trk_q) begin
        a_queued_poppable: assert (nonempty[tslot_q]);
        a_ahead_inside: assert (ahead_q < scnt(tslot_q));
      end
`ifndef BREAK_PROP
      if (ans_q) a_answered: assert (rsp_valid && rsp_slot == tslot_q && rsp_data == tdat_q);
`else
      // Broken on purpose (non-vacuity): claims the answer comes a cycle later than it does.
      if (done_q && $past(ans_q)) begin
        a_answered: assert (rsp_valid && rsp_slot == tslot_q && rsp_data == tdat_q);
      end
`endif
      // Induction strengthening: the bank's structure, and the tracked request inside it.
      a_cnt_is_shadow: assert (tap_cnt == scnt_q);
      a_tails: assert (tails_ok);
      for (int s = 0; s < Slots; s++) assert (tap_cnt[s*CntBits +: CntBits] <= CntBits'(Entries));
      a_bump_range: assert (tap_bump <= CntBits'(Entries));
      a_fcnt_range: assert (tap_fcnt <= CntBits'(Entries));
      a_fptrs: assert (tap_fwr == fwr_exp);
      a_ob_range: assert (tap_ob_n <= 2'd2);
      a_pend_nonempty: assert (!tap_pend || tap_cnt[tap_pend_slot*CntBits +: CntBits] != '0);
      if (trk_q) begin
        a_tracked_in_list: assert (tracked_at);
        a_tracked_payload: assert (tap_pay[tidx_q*Width +: Width] == tdat_q);
      end
    end
  end
endmodule
`default_nettype wire
