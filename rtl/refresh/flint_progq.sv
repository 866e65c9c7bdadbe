// Program queue of the phantom-plane refresh controller (paper section 4.2, Fig. 8;
// docs/refresh.md, "The program queue as built"). One instance per die. It holds corrected pages
// of the source plane between their migration-bitmap admission and their program into the
// phantom, and drains them at the phantom's program rate.
//
// Storage: Slots pages of Lines beats in one flint_sram (Slots*Lines words of BeatBits); a beat
// is one corrected cache line, the unit the ECC decoder delivers. Only data is stored: the
// program path re-encodes (ECC encode on the write path), so a page costs PAGE_BYTES.
//
// Writers. Two write contexts, each filling at most one page at a time, in a slot of its own:
//   fork   a corrected foreground read of a source-plane page. Never back-pressured. A line with
//          fork_open_i opens a page (block, page); the open takes a free slot if there is one
//          (fork_room_o, a function of state only, says so in advance), else the page is
//          dropped: fork_drop_o pulses in that cycle, dropped_o counts it, and the page's later
//          lines are ignored. The controller offers the page to the migration bitmap only when
//          fork_room_o is high, so a dropped page's bit stays clear and the scrubber reads it
//          later (docs/refresh.md).
//   scrub  a page the scrubber read. Valid/ready: ready is low in any cycle with a fork line
//          (one SRAM write port; the fork has priority), and an open also needs more than
//          ForkReserve free slots (the scrubber never takes the fork's last slots).
// Lines of a page come in any order, each once (fork_line_i / scrub_line_i); the page commits,
// and only then becomes visible to the program side, in the cycle its last missing line is
// written. A line arriving while its context has no open page is ignored (it belongs to a
// dropped or cancelled page). *_cancel_i forgets the open page of a context and frees its slot
// (the bitmap said the page was not first); it is never given together with a line of the same
// context, and a cancel with no open page does nothing. Opening a page while the context has
// one open is a contract violation (asserted); the RTL then restarts the page in its slot.
//
// Program side: committed pages in commit order, each as Lines beats in line order, valid/ready
// with the page's header on every beat and prog_last_o on the last. A slot is freed when the
// program side takes its last beat. Latency: a page committed in cycle t offers its first beat
// in cycle t+3; beats then stream at one a cycle, also across pages.
//
// Statistics: occupancy_o = slots in use (open or committed and not yet wholly taken);
// high_water_o = the largest occupancy right after an allocation; enq_fork_o / enq_scrub_o =
// pages committed per writer; dropped_o = fork opens refused for lack of a slot; programmed_o =
// pages whose last beat the program side took. Counters wrap at 2^StatBits.
`default_nettype none
`include "flint_assert.svh"
module flint_progq #(
  parameter int unsigned Slots       = flint_cfg_pkg::ProgqPages,
  parameter int unsigned Lines       = flint_cfg_pkg::ClPerPage,   // beats per page
  parameter int unsigned BeatBits    = flint_cfg_pkg::ClDataBits,  // one corrected cache line
  parameter int unsigned Blocks      = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages       = flint_cfg_pkg::Pages,
  parameter int unsigned ForkReserve = 1,   // free slots a scrubber open must leave to the fork
  parameter int unsigned StatBits    = 32,
  // do not override
  localparam int unsigned SlotBits  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int unsigned LineBits  = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned BlockBits = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits  = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned Words     = Slots * Lines,
  localparam int unsigned AddrBits  = (Words > 1) ? $clog2(Words) : 1,
  localparam int unsigned CountBits = $clog2(Slots + 1),
  localparam int unsigned HdrBits   = BlockBits + PageBits + 1,  // {block, page, scrub}
  localparam int unsigned CmBits    = SlotBits + HdrBits,        // {slot, header}
  localparam int unsigned OutBits   = CmBits + LineBits + 1 + BeatBits  // {.., line, last, data}
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // fork: lines of a corrected foreground read, no back-pressure
  input  logic                 fork_valid_i,
  input  logic                 fork_open_i,
  input  logic [BlockBits-1:0] fork_block_i,
  input  logic [PageBits-1:0]  fork_page_i,
  input  logic [LineBits-1:0]  fork_line_i,
  input  logic [BeatBits-1:0]  fork_data_i,
  input  logic                 fork_cancel_i,
  output logic                 fork_room_o,
  output logic                 fork_drop_o,
  // scrubber: lines of a scrubber read, valid/ready
  input  logic                 scrub_valid_i,
  output logic                 scrub_ready_o,
  input  logic                 scrub_open_i,
  input  logic [BlockBits-1:0] scrub_block_i,
  input  logic [PageBits-1:0]  scrub_page_i,
  input  logic [LineBits-1:0]  scrub_line_i,
  input  logic [BeatBits-1:0]  scrub_data_i,
  input  logic                 scrub_cancel_i,
  // program side: beats of committed pages to the NAND sequencer's program data-in
  output logic                 prog_valid_o,
  input  logic                 prog_ready_i,
  output logic [BlockBits-1:0] prog_block_o,
  output logic [PageBits-1:0]  prog_page_o,
  output logic                 prog_scrub_o,
  output logic [LineBits-1:0]  prog_line_o,
  output logic                 prog_last_o,
  output logic [BeatBits-1:0]  prog_data_o,
  // statistics
  output logic [CountBits-1:0] occupancy_o,
  output logic [CountBits-1:0] high_water_o,
  output logic [StatBits-1:0]  enq_fork_o,
  output logic [StatBits-1:0]  enq_scrub_o,
  output logic [StatBits-1:0]  dropped_o,
  output logic [StatBits-1:0]  programmed_o
);
  localparam logic [Lines-1:0] AllLines = {Lines{1'b1}};

  // Slot pool.
  logic [Slots-1:0] free_q, free_d;
  logic [CountBits-1:0] free_cnt_q, free_cnt_d;
  // Write contexts: fork (fk_) and scrubber (sc_).
  logic fk_open_q, fk_open_d, sc_open_q, sc_open_d;
  logic [SlotBits-1:0] fk_slot_q, fk_slot_d, sc_slot_q, sc_slot_d;
  logic [Lines-1:0] fk_mask_q, fk_mask_d, sc_mask_q, sc_mask_d;
  logic [BlockBits-1:0] fk_block_q, fk_block_d, sc_block_q, sc_block_d;
  logic [PageBits-1:0] fk_page_q, fk_page_d, sc_page_q, sc_page_d;
  // Reader: the page whose beats are being read out of the SRAM.
  logic rd_act_q, rd_act_d;
  logic [CmBits-1:0] rd_ent_q, rd_ent_d;
  logic [LineBits-1:0] rd_line_q, rd_line_d;
  logic inflight_q;                  // an SRAM read was issued last cycle
  logic [CmBits+LineBits:0] meta_q;  // its {slot, header, line, last}
  // Statistics.
  logic [CountBits-1:0] hwm_q, hwm_d;
  logic [StatBits-1:0] enq_fork_q, enq_scrub_q, dropped_q, programmed_q;

  // ---------------------------------------------------------------- allocation
  logic any_free;
  logic [SlotBits-1:0] alloc_slot;
  always_comb begin
    any_free = 1'b0;
    alloc_slot = '0;
    for (int unsigned s = Slots; s > 0; s--) begin
      if (free_q[s-1]) begin
        any_free = 1'b1;
        alloc_slot = SlotBits'(s - 1);
      end
    end
  end
  assign fork_room_o = free_cnt_q != '0;

  // ---------------------------------------------------------------- fork context
  logic fk_opening, fk_alloc, fk_write, fk_done;
  logic [SlotBits-1:0] fk_slot;
  logic [Lines-1:0] fk_mask_new;
  logic [BlockBits-1:0] fk_block;
  logic [PageBits-1:0] fk_page;
  assign fk_opening  = fork_valid_i && fork_open_i;
  assign fk_alloc    = fk_opening && !fk_open_q && fork_room_o;
  assign fork_drop_o = fk_opening && !fk_open_q && !fork_room_o;
  assign fk_write    = fork_valid_i && (fk_open_q || fk_alloc);
  assign fk_slot     = fk_open_q ? fk_slot_q : alloc_slot;
  assign fk_mask_new = (fk_opening ? '0 : fk_mask_q) | (Lines'(1) << fork_line_i);
  assign fk_done     = fk_write && fk_mask_new == AllLines;
  assign fk_block    = fk_opening ? fork_block_i : fk_block_q;
  assign fk_page     = fk_opening ? fork_page_i : fk_page_q;

  // ---------------------------------------------------------------- scrubber context
  logic sc_fire, sc_opening, sc_alloc, sc_write, sc_done;
  logic [SlotBits-1:0] sc_slot;
  logic [Lines-1:0] sc_mask_new;
  logic [BlockBits-1:0] sc_block;
  logic [PageBits-1:0] sc_page;
  assign scrub_ready_o = !fork_valid_i && (sc_open_q || 32'(free_cnt_q) > ForkReserve);
  assign sc_fire     = scrub_valid_i && scrub_ready_o;
  assign sc_opening  = sc_fire && scrub_open_i;
  assign sc_alloc    = sc_opening && !sc_open_q;
  assign sc_write    = sc_fire && (sc_open_q || sc_alloc);
  assign sc_slot     = sc_open_q ? sc_slot_q : alloc_slot;
  assign sc_mask_new = (sc_opening ? '0 : sc_mask_q) | (Lines'(1) << scrub_line_i);
  assign sc_done     = sc_write && sc_mask_new == AllLines;
  assign sc_block    = sc_opening ? scrub_block_i : sc_block_q;
  assign sc_page     = sc_opening ? scrub_page_i : sc_page_q;

  // ---------------------------------------------------------------- page store
  logic wr_en;
  logic [AddrBits-1:0] wr_addr, rd_addr;
  logic [BeatBits-1:0] wr_data, rd_data;
  logic rd_issue;
  assign wr_en   = fk_write || sc_write;
  assign wr_addr = fk_write ? AddrBits'(32'(fk_slot) * Lines + 32'(fork_line_i))
                            : AddrBits'(32'(sc_slot) * Lines + 32'(scrub_line_i));
  assign wr_data = fk_write ? fork_data_i : scrub_data_i;

  flint_sram #(.Width(BeatBits), .Depth(Words)) u_pages (
    .clk_i,
    .rd_en_i  (rd_issue),
    .rd_addr_i(rd_addr),
    .rd_data_o(rd_data),
    .wr_en_i  (wr_en),
    .wr_addr_i(wr_addr),
    .wr_data_i(wr_data)
  );

  // ---------------------------------------------------------------- commit queue
  // Committed pages in commit order. At most one commit a cycle: a scrubber line is never taken
  // in a cycle with a fork line. Never full when pushed: each entry holds a slot.
  logic cm_push, cm_in_ready, cm_valid, cm_pop;
  logic [CmBits-1:0] cm_in, cm_out;
  logic [CountBits-1:0] cm_usage;
  assign cm_push = fk_done || sc_done;
  assign cm_in   = fk_done ? {fk_slot, fk_block, fk_page, 1'b0}
                           : {sc_slot, sc_block, sc_page, 1'b1};

  flint_fifo #(.Width(CmBits), .Depth(Slots)) u_commit (
    .clk_i,
    .rst_ni,
    .in_valid_i (cm_push),
    .in_ready_o (cm_in_ready),
    .in_data_i  (cm_in),
    .out_valid_o(cm_valid),
    .out_ready_i(cm_pop),
    .out_data_o (cm_out),
    .usage_o    (cm_usage)
  );

  // ---------------------------------------------------------------- reader
  // Reads the next beat of the active page (or the first beat of the commit queue's head) when
  // the 2-entry output buffer will have room for it: buffered + in flight - taken now < 2.
  logic [CmBits-1:0] rd_ent;
  logic [LineBits-1:0] rd_line;
  logic rd_last, prog_fire;
  logic [1:0] ob_usage;
  logic ob_in_ready;
  logic [OutBits-1:0] ob_out;
  assign rd_ent    = rd_act_q ? rd_ent_q : cm_out;
  assign rd_line   = rd_act_q ? rd_line_q : '0;
  assign rd_last   = 32'(rd_line) + 1 == Lines;
  assign prog_fire = prog_valid_o && prog_ready_i;
  assign rd_issue  = (rd_act_q || cm_valid) &&
                     (3'(ob_usage) + 3'(inflight_q) - 3'(prog_fire)) < 3'd2;
  assign cm_pop    = rd_issue && !rd_act_q;
  assign rd_addr   = AddrBits'(32'(rd_ent[CmBits-1 -: SlotBits]) * Lines + 32'(rd_line));

  always_comb begin
    rd_act_d  = rd_act_q;
    rd_ent_d  = rd_ent_q;
    rd_line_d = rd_line_q;
    if (rd_issue) begin
      rd_act_d  = !rd_last;
      rd_ent_d  = rd_ent;
      rd_line_d = rd_line + LineBits'(1);
    end
  end

  flint_fifo #(.Width(OutBits), .Depth(2)) u_out (
    .clk_i,
    .rst_ni,
    .in_valid_i (inflight_q),
    .in_ready_o (ob_in_ready),
    .in_data_i  ({meta_q, rd_data}),
    .out_valid_o(prog_valid_o),
    .out_ready_i(prog_ready_i),
    .out_data_o (ob_out),
    .usage_o    (ob_usage)
  );

  logic [SlotBits-1:0] ob_slot;
  assign ob_slot      = ob_out[OutBits-1 -: SlotBits];
  assign prog_block_o = ob_out[OutBits-SlotBits-1 -: BlockBits];
  assign prog_page_o  = ob_out[OutBits-SlotBits-BlockBits-1 -: PageBits];
  assign prog_scrub_o = ob_out[OutBits-SlotBits-BlockBits-PageBits-1];
  assign prog_line_o  = ob_out[BeatBits+1 +: LineBits];
  assign prog_last_o  = ob_out[BeatBits];
  assign prog_data_o  = ob_out[BeatBits-1:0];

  // ---------------------------------------------------------------- contexts and pool
  logic prog_free;
  assign prog_free = prog_fire && prog_last_o;

  always_comb begin
    fk_open_d  = fk_open_q;
    fk_slot_d  = fk_slot_q;
    fk_mask_d  = fk_mask_q;
    fk_block_d = fk_block_q;
    fk_page_d  = fk_page_q;
    if (fk_write) begin
      fk_open_d  = !fk_done;
      fk_slot_d  = fk_slot;
      fk_mask_d  = fk_mask_new;
      fk_block_d = fk_block;
      fk_page_d  = fk_page;
    end else if (fork_cancel_i) begin
      fk_open_d = 1'b0;
    end
    sc_open_d  = sc_open_q;
    sc_slot_d  = sc_slot_q;
    sc_mask_d  = sc_mask_q;
    sc_block_d = sc_block_q;
    sc_page_d  = sc_page_q;
    if (sc_write) begin
      sc_open_d  = !sc_done;
      sc_slot_d  = sc_slot;
      sc_mask_d  = sc_mask_new;
      sc_block_d = sc_block;
      sc_page_d  = sc_page;
    end else if (scrub_cancel_i) begin
      sc_open_d = 1'b0;
    end
  end

  logic fk_cancel, sc_cancel, alloc;
  assign fk_cancel = fork_cancel_i && !fork_valid_i && fk_open_q;
  assign sc_cancel = scrub_cancel_i && !sc_fire && sc_open_q;
  assign alloc     = fk_alloc || sc_alloc;

  always_comb begin
    free_d = free_q;
    if (alloc) free_d[alloc_slot] = 1'b0;
    if (fk_cancel) free_d[fk_slot_q] = 1'b1;
    if (sc_cancel) free_d[sc_slot_q] = 1'b1;
    if (prog_free) free_d[ob_slot] = 1'b1;
    free_cnt_d = free_cnt_q - CountBits'(alloc) + CountBits'(fk_cancel) + CountBits'(sc_cancel) +
                 CountBits'(prog_free);
    hwm_d = hwm_q;
    if (alloc && CountBits'(Slots) - free_cnt_q + CountBits'(1) > hwm_q) begin
      hwm_d = CountBits'(Slots) - free_cnt_q + CountBits'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      free_q       <= '1;
      free_cnt_q   <= CountBits'(Slots);
      fk_open_q    <= 1'b0;
      fk_slot_q    <= '0;
      fk_mask_q    <= '0;
      fk_block_q   <= '0;
      fk_page_q    <= '0;
      sc_open_q    <= 1'b0;
      sc_slot_q    <= '0;
      sc_mask_q    <= '0;
      sc_block_q   <= '0;
      sc_page_q    <= '0;
      rd_act_q     <= 1'b0;
      rd_ent_q     <= '0;
      rd_line_q    <= '0;
      inflight_q   <= 1'b0;
      meta_q       <= '0;
      hwm_q        <= '0;
      enq_fork_q   <= '0;
      enq_scrub_q  <= '0;
      dropped_q    <= '0;
      programmed_q <= '0;
    end else begin
      free_q       <= free_d;
      free_cnt_q   <= free_cnt_d;
      fk_open_q    <= fk_open_d;
      fk_slot_q    <= fk_slot_d;
      fk_mask_q    <= fk_mask_d;
      fk_block_q   <= fk_block_d;
      fk_page_q    <= fk_page_d;
      sc_open_q    <= sc_open_d;
      sc_slot_q    <= sc_slot_d;
      sc_mask_q    <= sc_mask_d;
      sc_block_q   <= sc_block_d;
      sc_page_q    <= sc_page_d;
      rd_act_q     <= rd_act_d;
      rd_ent_q     <= rd_ent_d;
      rd_line_q    <= rd_line_d;
      inflight_q   <= rd_issue;
      if (rd_issue) meta_q <= {rd_ent, rd_line, rd_last};
      hwm_q        <= hwm_d;
      enq_fork_q   <= enq_fork_q + StatBits'(fk_done);
      enq_scrub_q  <= enq_scrub_q + StatBits'(sc_done);
      dropped_q    <= dropped_q + StatBits'(fork_drop_o);
      programmed_q <= programmed_q + StatBits'(prog_free);
    end
  end

  assign occupancy_o  = CountBits'(Slots) - free_cnt_q;
  assign high_water_o = hwm_q;
  assign enq_fork_o   = enq_fork_q;
  assign enq_scrub_o  = enq_scrub_q;
  assign dropped_o    = dropped_q;
  assign programmed_o = programmed_q;

`ifndef SYNTHESIS
  logic [StatBits-1:0] waiting;  // committed pages not yet wholly taken by the program side
  assign waiting = enq_fork_q + enq_scrub_q - programmed_q;

  // No overflow: a slot is only taken when free, the pool count matches the pool, one page a
  // slot, and the commit queue and output buffer never refuse.
  `FLINT_ASSERT(a_free_count, 32'($countones(free_q)) == 32'(free_cnt_q))
  `FLINT_ASSERT_IMPLY(a_alloc_free_slot, alloc, any_free && free_q[alloc_slot])
  `FLINT_ASSERT(a_one_alloc, !(fk_alloc && sc_alloc))
  `FLINT_ASSERT(a_one_writer, !(fk_write && sc_write))
  `FLINT_ASSERT_IMPLY(a_commit_room, cm_push, cm_in_ready)
  `FLINT_ASSERT_IMPLY(a_out_room, inflight_q, ob_in_ready)
  `FLINT_ASSERT_IMPLY(a_free_in_use, prog_free, !free_q[ob_slot])
  `FLINT_ASSERT_IMPLY(a_contexts_differ, fk_open_q && sc_open_q, fk_slot_q != sc_slot_q)
  `FLINT_ASSERT_IMPLY(a_fork_slot_held, fk_open_q, !free_q[fk_slot_q])
  `FLINT_ASSERT_IMPLY(a_scrub_slot_held, sc_open_q, !free_q[sc_slot_q])
  `FLINT_ASSERT_IMPLY(a_scrub_leaves_reserve, sc_alloc, 32'(free_cnt_q) > ForkReserve)
  // No read of an incomplete entry: the slot read is held and no writer is filling it.
  `FLINT_ASSERT_IMPLY(a_read_complete, rd_issue,
                      !free_q[rd_ent[CmBits-1 -: SlotBits]] &&
                      !(fk_open_q && fk_slot_q == rd_ent[CmBits-1 -: SlotBits]) &&
                      !(sc_open_q && sc_slot_q == rd_ent[CmBits-1 -: SlotBits]))
  // Counts consistent: every slot in use is open in a context or committed and not yet taken.
  `FLINT_ASSERT(a_counts_consistent,
                32'(waiting) + 32'(fk_open_q) + 32'(sc_open_q) == 32'(occupancy_o))
  `FLINT_ASSERT(a_waiting_queued,
                32'(waiting) >= 32'(cm_usage) + 32'(rd_act_q) &&
                32'(waiting) <= 32'(cm_usage) + 32'(rd_act_q) + 32'(ob_usage) + 32'(inflight_q))
  `FLINT_ASSERT(a_high_water, high_water_o >= occupancy_o && 32'(high_water_o) <= Slots)
  // Writer contracts (the controller's side).
  `FLINT_ASSERT(a_fork_cancel_alone, !(fork_cancel_i && fork_valid_i))
  `FLINT_ASSERT(a_scrub_cancel_alone, !(scrub_cancel_i && scrub_valid_i))
  `FLINT_ASSERT(a_fork_open_once, !(fk_opening && fk_open_q))
  `FLINT_ASSERT(a_scrub_open_once, !(sc_opening && sc_open_q))
  `FLINT_ASSERT_IMPLY(a_fork_line_once, fork_valid_i && fk_open_q && !fork_open_i,
                      !fk_mask_q[fork_line_i])
  `FLINT_ASSERT_IMPLY(a_scrub_line_once, sc_fire && sc_open_q && !scrub_open_i,
                      !sc_mask_q[scrub_line_i])
  `FLINT_ASSERT_IMPLY(a_scrub_held, $past(scrub_valid_i && !scrub_ready_o),
                      scrub_valid_i && $stable(scrub_open_i) && $stable(scrub_line_i) &&
                      $stable(scrub_data_i) &&
                      (!scrub_open_i || ($stable(scrub_block_i) && $stable(scrub_page_i))))
  // Program side: the payload holds while it waits.
  `FLINT_ASSERT_IMPLY(a_prog_stable, $past(prog_valid_o && !prog_ready_i),
                      prog_valid_o && $stable(ob_out))
  `FLINT_COVER(c_full, free_cnt_q == '0)
  `FLINT_COVER(c_drop, fork_drop_o)
  `FLINT_COVER(c_both_open, fk_open_q && sc_open_q)
  `FLINT_COVER(c_scrub_held_by_fork, scrub_valid_i && fork_valid_i)
  `FLINT_COVER(c_page_to_page, rd_issue && cm_pop && $past(rd_issue && rd_last))
  // The scrubber held off by the fork's reserve; a fork drop right after another; a line of a
  // dropped or cancelled page ignored; each writer cancelling; both committing pages in one
  // run of the queue; the program side stalling.
  `FLINT_COVER(c_scrub_held_by_reserve, scrub_valid_i && !fork_valid_i && !sc_open_q &&
                                        32'(free_cnt_q) <= ForkReserve)
  `FLINT_COVER(c_drop_back_to_back, fork_drop_o && $past(fork_drop_o))
  `FLINT_COVER(c_fork_line_ignored, fork_valid_i && !fork_open_i && !fk_open_q)
  `FLINT_COVER(c_fork_cancel, fk_cancel)
  `FLINT_COVER(c_scrub_cancel, sc_cancel)
  `FLINT_COVER(c_commit_fork, fk_done)
  `FLINT_COVER(c_commit_scrub, sc_done)
  `FLINT_COVER(c_prog_stall, prog_valid_o && !prog_ready_i)
`endif

  // Geometry the queue needs.
  initial begin
    if (Slots < 2) $error("flint_progq: Slots must be at least 2");
    if (ForkReserve >= Slots) $error("flint_progq: ForkReserve must be below Slots");
  end
endmodule
`default_nettype wire
