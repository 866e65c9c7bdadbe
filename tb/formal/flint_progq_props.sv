// Formal property wrapper of flint_progq (docs/formal.md; run by scripts/formal.py).
// "The program side never sees a partial page", proven by induction:
//   - every SRAM read of the reader (the beats the program side will get) is of a slot all of whose
//     Lines lines were written since the slot was last allocated (a ghost mask per slot, set by the
//     SRAM writes themselves, cleared when the slot is allocated);
//   - a write only goes into the slot its context holds open: never into a committed page, a free
//     slot or the other context's page;
//   - on the program side prog_last_o is high exactly on line Lines-1 (line order across the
//     output buffer is not proven here: docs/formal.md);
//   - the module's own assertions (pool count, one page a slot, read of a held slot only, counts
//     consistent, no refused commit or output).
// The environment keeps the writers' contract the module asserts (a_*_cancel_alone,
// a_*_open_once, a_*_line_once, a_scrub_held): assumed here.
// Induction invariant: the slots are a partition of {free, open in the fork context, open in the
// scrub context, in the commit queue, being read, last beat in flight or in the output buffer}.
// tap_* inputs are bound by scripts/formal.py to internal signals and FIFO words.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_progq_props #(
  parameter int unsigned Slots    = 2,
  parameter int unsigned Lines    = 2,
  parameter int unsigned BeatBits = 1,
  parameter int unsigned Blocks   = 2,
  parameter int unsigned Pages    = 2,
  parameter int unsigned StatBits = 2,
  // do not override
  localparam int unsigned SlotBits  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int unsigned LineBits  = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned BlockBits = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits  = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned AddrBits  = $clog2(Slots * Lines),
  localparam int unsigned CountBits = $clog2(Slots + 1),
  localparam int unsigned HdrBits   = BlockBits + PageBits + 1,
  localparam int unsigned CmBits    = SlotBits + HdrBits,
  localparam int unsigned MetaBits  = CmBits + LineBits + 1,
  localparam int unsigned OutBits   = MetaBits + BeatBits
) (
  input logic                 clk_i,
  input logic                 rst_ni,
  input logic                 fork_valid_i,
  input logic                 fork_open_i,
  input logic [BlockBits-1:0] fork_block_i,
  input logic [PageBits-1:0]  fork_page_i,
  input logic [LineBits-1:0]  fork_line_i,
  input logic [BeatBits-1:0]  fork_data_i,
  input logic                 fork_cancel_i,
  input logic                 scrub_valid_i,
  input logic                 scrub_open_i,
  input logic [BlockBits-1:0] scrub_block_i,
  input logic [PageBits-1:0]  scrub_page_i,
  input logic [LineBits-1:0]  scrub_line_i,
  input logic [BeatBits-1:0]  scrub_data_i,
  input logic                 scrub_cancel_i,
  input logic                 prog_ready_i,
  // bound to internals by scripts/formal.py
  input logic [Slots-1:0]     tap_free,
  input logic                 tap_fk_open,
  input logic [SlotBits-1:0]  tap_fk_slot,
  input logic [Lines-1:0]     tap_fk_mask,
  input logic                 tap_sc_open,
  input logic [SlotBits-1:0]  tap_sc_slot,
  input logic [Lines-1:0]     tap_sc_mask,
  input logic                 tap_rd_act,
  input logic [CmBits-1:0]    tap_rd_ent,
  input logic                 tap_inflight,
  input logic [MetaBits-1:0]  tap_meta,
  input logic                 tap_rd_issue,
  input logic [AddrBits-1:0]  tap_rd_addr,
  input logic                 tap_wr_en,
  input logic [AddrBits-1:0]  tap_wr_addr,
  input logic                 tap_fk_write,
  input logic                 tap_alloc,
  input logic [SlotBits-1:0]  tap_alloc_slot,
  input logic                 tap_cm_rd,         // commit queue: read pointer, count, words
  input logic [1:0]           tap_cm_cnt,
  input logic                 tap_cm_wr,
  input logic [2*CmBits-1:0]  tap_cm_mem,
  input logic                 tap_ob_rd,         // output buffer: read pointer, count, words
  input logic [1:0]           tap_ob_cnt,
  input logic                 tap_ob_wr,
  input logic [2*OutBits-1:0] tap_ob_mem
);
  logic fork_room, fork_drop, scrub_ready, prog_valid, prog_scrub, prog_last;
  logic [BlockBits-1:0] prog_block;
  logic [PageBits-1:0] prog_page;
  logic [LineBits-1:0] prog_line;
  logic [BeatBits-1:0] prog_data;
  logic [CountBits-1:0] occupancy, high_water;
  logic [StatBits-1:0] enq_fork, enq_scrub, dropped, programmed;

  flint_progq #(
    .Slots(Slots), .Lines(Lines), .BeatBits(BeatBits), .Blocks(Blocks), .Pages(Pages),
    .ForkReserve(1), .StatBits(StatBits)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .fork_valid_i,
    .fork_open_i,
    .fork_block_i,
    .fork_page_i,
    .fork_line_i,
    .fork_data_i,
    .fork_cancel_i,
    .fork_room_o  (fork_room),
    .fork_drop_o  (fork_drop),
    .scrub_valid_i,
    .scrub_ready_o(scrub_ready),
    .scrub_open_i,
    .scrub_block_i,
    .scrub_page_i,
    .scrub_line_i,
    .scrub_data_i,
    .scrub_cancel_i,
    .prog_valid_o (prog_valid),
    .prog_ready_i,
    .prog_block_o (prog_block),
    .prog_page_o  (prog_page),
    .prog_scrub_o (prog_scrub),
    .prog_line_o  (prog_line),
    .prog_last_o  (prog_last),
    .prog_data_o  (prog_data),
    .occupancy_o  (occupancy),
    .high_water_o (high_water),
    .enq_fork_o   (enq_fork),
    .enq_scrub_o  (enq_scrub),
    .dropped_o    (dropped),
    .programmed_o (programmed)
  );
  logic unused;
  assign unused = ^{fork_room, fork_drop, prog_data, occupancy, high_water, enq_fork, enq_scrub,
                    dropped, programmed, tap_rd_ent, tap_meta, tap_rd_addr, cm_word, ob_w, prog_scrub,
                    prog_block, prog_page};

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  // --- environment: the writers' contract the module asserts ------------------------------------
  logic sc_wait_q;
  logic [BlockBits+PageBits+LineBits+BeatBits+1:0] sc_req_q;
  always @(posedge clk_i) begin
    // As the module's a_scrub_held: also across a reset.
    sc_wait_q <= scrub_valid_i && !scrub_ready;
    sc_req_q  <= {scrub_open_i, scrub_cancel_i, scrub_block_i, scrub_page_i, scrub_line_i,
                  scrub_data_i};
  end
  always @(*) begin
    if (rst_ni) begin
      assume (!(fork_cancel_i && fork_valid_i));
      assume (!(scrub_cancel_i && scrub_valid_i));
      assume (!(fork_valid_i && fork_open_i && tap_fk_open));
      assume (!(scrub_valid_i && scrub_open_i && tap_sc_open));
      if (fork_valid_i && tap_fk_open && !fork_open_i) assume (!tap_fk_mask[fork_line_i]);
      if (scrub_valid_i && tap_sc_open && !scrub_open_i) assume (!tap_sc_mask[scrub_line_i]);
      if (sc_wait_q) begin
        assume (scrub_valid_i && {scrub_open_i, scrub_cancel_i, scrub_block_i, scrub_page_i,
                                  scrub_line_i, scrub_data_i} == sc_req_q);
      end
    end
  end

  // --- ghost: lines written into each slot since its allocation ---------------------------------
  logic [Slots*Lines-1:0] gw_q;  // slot s's lines at [s*Lines +: Lines]
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gw_q <= '0;
    end else begin
      if (tap_alloc) gw_q[tap_alloc_slot*Lines +: Lines] <= '0;
      // A write in the allocating cycle lands in the allocated slot: applied after the clear.
      if (tap_wr_en) begin
        if (tap_alloc && tap_wr_addr[AddrBits-1 -: SlotBits] == tap_alloc_slot) begin
          gw_q[tap_alloc_slot*Lines +: Lines] <= Lines'(1) << tap_wr_addr[LineBits-1:0];
        end else begin
          gw_q[tap_wr_addr] <= 1'b1;
        end
      end
    end
  end

  // --- the partition: in how many places each slot is ----------------------------------------
  logic [Slots*4-1:0] places;  // slot s's count at [s*4 +: 4]
  logic [3:0] n;
  logic [CmBits-1:0] cm_word;
  logic [OutBits-1:0] ob_word;
  logic cm_pos, ob_pos;
  always @(*) begin
    places = '0;
    for (int s = 0; s < Slots; s++) begin
      n = 4'(tap_free[s]);
      if (tap_fk_open && tap_fk_slot == SlotBits'(s)) n = n + 4'd1;
      if (tap_sc_open && tap_sc_slot == SlotBits'(s)) n = n + 4'd1;
      for (int j = 0; j < 2; j++) begin
        cm_pos = tap_cm_rd + 1'(j);
        cm_word = tap_cm_mem[cm_pos*CmBits +: CmBits];
        if (2'(j) < tap_cm_cnt && cm_word[CmBits-1 -: SlotBits] == SlotBits'(s)) n = n + 4'd1;
        ob_pos = tap_ob_rd + 1'(j);
        ob_word = tap_ob_mem[ob_pos*OutBits +: OutBits];
        if (2'(j) < tap_ob_cnt && ob_word[BeatBits] &&
            ob_word[OutBits-1 -: SlotBits] == SlotBits'(s)) n = n + 4'd1;
      end
      if (tap_rd_act && tap_rd_ent[CmBits-1 -: SlotBits] == SlotBits'(s)) n = n + 4'd1;
      if (tap_inflight && tap_meta[0] && tap_meta[MetaBits-1 -: SlotBits] == SlotBits'(s)) begin
        n = n + 4'd1;
      end
      places[s*4 +: 4] = n;
    end
  end

  // The output buffer's words: valid ones carry last = (line == Lines - 1).
  logic [1:0] ob_ok, ob_last_ok;
  logic ob_at;  // a variable: Yosys 0.23 lets 1'(j) widen the sum around it (docs/formal.md)
  logic [OutBits-1:0] ob_w;
  always @(*) begin
    for (int j = 0; j < 2; j++) begin
      ob_at = tap_ob_rd + 1'(j);
      ob_w = tap_ob_mem[ob_at*OutBits +: OutBits];
      ob_ok[j] = 2'(j) < tap_ob_cnt;
      ob_last_ok[j] = ob_w[BeatBits] == (32'(ob_w[BeatBits+1 +: LineBits]) == Lines - 1);
    end
  end

  logic cm_wr_exp, ob_wr_exp;  // variables, for the cast note in docs/formal.md
  assign cm_wr_exp = tap_cm_rd + tap_cm_cnt[0];
  assign ob_wr_exp = tap_ob_rd + tap_ob_cnt[0];

  logic [SlotBits-1:0] rd_slot, wr_slot;
  assign rd_slot = tap_rd_addr[AddrBits-1 -: SlotBits];
  assign wr_slot = tap_wr_addr[AddrBits-1 -: SlotBits];
  localparam logic [Lines-1:0] AllLines = {Lines{1'b1}};

  for (genvar s = 0; s < Slots; s++) begin : g_slot
    always @(posedge clk_i) begin
      if (rst_ni && !f_init_q) begin
        assert (places[s*4 +: 4] == 4'd1);
        // Open pages: the ghost agrees with the context's mask.
        if (tap_fk_open && tap_fk_slot == SlotBits'(s)) assert (gw_q[s*Lines +: Lines] == tap_fk_mask);
        if (tap_sc_open && tap_sc_slot == SlotBits'(s)) assert (gw_q[s*Lines +: Lines] == tap_sc_mask);
        // Committed pages, queued or being read: complete.
        if (!tap_free[s] && !(tap_fk_open && tap_fk_slot == SlotBits'(s)) &&
            !(tap_sc_open && tap_sc_slot == SlotBits'(s))) begin
          assert (gw_q[s*Lines +: Lines] == AllLines);
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
`ifndef BREAK_PROP
      // The reader reads only slots whose every line was written since allocation.
      if (tap_rd_issue) a_read_whole_page: assert (gw_q[rd_slot*Lines +: Lines] == AllLines);
`else
      // Broken on purpose (non-vacuity): claims the reader never reads line 1 of a page.
      if (tap_rd_issue) a_read_whole_page: assert (tap_rd_addr[LineBits-1:0] == '0);
`endif
      // A write goes only into the slot its context holds open (or is opening now).
      if (tap_wr_en && tap_fk_write && tap_fk_open) a_fork_writes_own: assert (wr_slot == tap_fk_slot);
      if (tap_wr_en && !tap_fk_write && tap_sc_open) a_scrub_writes_own: assert (wr_slot == tap_sc_slot);
      if (tap_wr_en && tap_alloc) a_alloc_writes_new: assert (wr_slot == tap_alloc_slot);
      if (tap_wr_en) a_write_held: assert (!tap_free[wr_slot] || tap_alloc);
      // The program side: one page at a time, in line order, last on the last line.
      if (prog_valid) a_last_on_last: assert (prog_last == (32'(prog_line) == Lines - 1));
      // Induction strengthening: every beat in flight or buffered carries last = (last line).
      if (tap_inflight) begin
        a_meta_last: assert (tap_meta[0] == (32'(tap_meta[LineBits:1]) == Lines - 1));
      end
      if (ob_ok[0]) a_ob0_last: assert (ob_last_ok[0]);
      if (ob_ok[1]) a_ob1_last: assert (ob_last_ok[1]);
      // Both FIFOs (depth 2): the write pointer is the read pointer plus the count.
      a_cm_ptrs: assert (tap_cm_wr == cm_wr_exp);
      a_ob_ptrs: assert (tap_ob_wr == ob_wr_exp);
      a_ob_range: assert (tap_ob_cnt <= 2'd2);
      a_cm_range: assert (tap_cm_cnt <= 2'd2);
    end
  end
endmodule
`default_nettype wire
