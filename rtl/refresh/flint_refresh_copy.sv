// The write side of one refresh die (docs/refresh.md, "The phantom's write path", "The switch
// and the erase"): the program engine, the erase engine and the die's client port on its
// maintenance sequencer.
//   program  the program queue's head page into the phantom P at tgt[b] (the parent's table,
//            read at the queue's head block): a ProgramPage, then its lines (poisoned ones
//            flagged; the sequencer encodes them). The next page is asked for only once the last
//            is answered, so no request waits in the sequencer for P's busy plane while a scrub
//            read could go.
//   retire   a failed program into P's block y (for logical block b) retires y and restarts b:
//            the copy pauses (retiring_o: the fork and the scrubber take no page), the queue
//            drains (b's pages in it are dropped, the others programmed), then MarkBad y and
//            Alloc another block y' for b (the parent's relocation commands), and b's copy
//            restarts at page 0 into y' (restart_o: the parent rewrites tgt[b], next[b] and the
//            pages copied). S still holds b and serves it: the switch comes only at the end.
//            No free good block on P (Alloc answers FtlNoFree): no_spare_o, and the parent halts.
//   erase    during the rotation's erase phase, each block of S in turn: EraseBlock if it held a
//            live block, then Release (the parent's relocation command; MarkBad instead if the
//            erase failed: the block is retired), then the read-count reset (the parent's
//            counter command).
//   port     the scrubber's ReadPage, the EraseBlock and the ProgramPage share the port: scrubber
//            first, then erase, then program, a request held until taken. Each engine has one
//            transaction in flight and its tag names it, so every answer goes back to its engine.
// A second program failure while one is being retired, a table refusing a retirement, and an
// answer refusing an address are reported (the parent halts). Halted (halt_i), the program
// engine offers no ProgramPage anew and drops the queued pages (one already offered stays until
// taken), so a halted die is quiet whatever the error (docs/formal.md, "Found").
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_copy #(
  // do not override
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned CountBits = $clog2(flint_cfg_pkg::Blocks * flint_cfg_pkg::Pages + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // the rotation: phantom and source planes
  input  logic [PPlBits-1:0]       phantom_i,
  input  logic [PPlBits-1:0]       source_i,
  input  logic                     halt_i,       // the die has halted (err_o): programs stop
  // the scrubber's ReadPage (S's block and page), taken (go), answered (rsp)
  input  logic                     sc_req_i,
  input  logic [BlockBits-1:0]     sc_pblock_i,
  input  logic [PageBits-1:0]      sc_page_i,
  output logic                     sc_go_o,
  output logic                     sc_rsp_o,
  // the program queue's head (page, lines) and tgt[] of its block (a cycle after it is asked)
  input  logic                     pq_valid_i,
  output logic                     pq_ready_o,
  input  logic [BlockBits-1:0]     pq_block_i,
  input  logic [PageBits-1:0]      pq_page_i,
  input  logic                     pq_last_i,
  input  logic [DataBits:0]        pq_data_i,    // {poison, data}
  input  logic [BlockBits-1:0]     tgt_rd_i,
  output logic                     pg_idle_o,    // no page taken from the queue
  output logic                     pg_pend_o,    // a program asked for and not answered yet
  // retiring a block of P: the copy paused, the relocation commands, the restart
  input  logic                     quiet_i,      // queue empty, no fork or scrub page under way
  output logic                     retiring_o,   // pause the copy (fork and scrubber take none)
  output logic                     rt_mark_o,    // MarkBad (P, rt_pblock_o) now
  output logic                     rt_alloc_o,   // Alloc (lS, rt_block_o) now
  output logic [BlockBits-1:0]     rt_block_o,   // the logical block whose copy restarts
  output logic [BlockBits-1:0]     rt_pblock_o,  // its block that failed
  output logic                     restart_o,    // tgt[b] = rt_new_o, next[b] = 0 now
  output logic [BlockBits-1:0]     rt_new_o,     // the block the copy restarts into
  output logic [CountBits-1:0]     rt_undo_o,    // b's pages counted as copied: count them again
  output logic                     no_spare_o,   // Alloc found no free good block on P
  // the erase phase: S's block at hand (more_i: one is left), whether it holds a live block
  input  logic                     erase_i,       // the rotation is in its erase phase
  input  logic                     erase_start_i, // it enters it next cycle
  input  logic                     erase_more_i,
  input  logic [BlockBits-1:0]     erase_block_i,
  input  logic                     erase_live_i,
  input  logic                     rc_rsp_valid_i, // a relocation command answered
  input  flint_pkg::ftl_status_e   rc_rsp_status_i,
  input  logic [BlockBits-1:0]     rc_rsp_block_i,
  input  logic                     cc_rsp_valid_i, // the read-count reset answered
  output logic                     er_release_o,   // Release S's block now
  output logic                     er_bad_o,       // ... with MarkBad: its erase failed
  output logic                     er_count_o,     // reset its read count now
  // errors: a program failure not retired, a retirement refused, an address refused
  output logic                     prog_fail_o,
  output logic                     rt_refused_o,
  output logic                     addr_bad_o,
  // this die's maintenance sequencer (through its flint_maint_arb)
  output logic                     mreq_valid_o,
  input  logic                     mreq_ready_i,
  output flint_pkg::maint_req_t    mreq_o,
  output logic                     mwr_valid_o,
  input  logic                     mwr_ready_i,
  output logic [DataBits-1:0]      mwr_data_o,
  output logic                     mwr_poison_o,
  input  logic                     mrsp_valid_i,
  output logic                     mrsp_ready_o,
  input  flint_pkg::maint_rsp_t    mrsp_i,
  // statistics
  output logic [31:0]              programmed_o,   // pages programmed into the phantom
  output logic [31:0]              erased_o,       // blocks erased
  output logic [31:0]              retired_prog_o, // blocks of P retired for a failed program
  output logic [31:0]              retired_erase_o // blocks of S retired for a failed erase
);
  // The engines' tags (one transaction in flight each): the scrubber's read, a program, an erase.
  localparam logic [flint_pkg::MaintTagBits-1:0] TagScrub = flint_pkg::MaintTagBits'(0);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagProg  = flint_pkg::MaintTagBits'(1);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagErase = flint_pkg::MaintTagBits'(2);

  // The sequencer's answers, to the engine their tag names (each takes its answer at once).
  logic rsp_prog, rsp_erase;
  assign mrsp_ready_o = 1'b1;
  assign sc_rsp_o = mrsp_valid_i && mrsp_i.tag == TagScrub;
  assign rsp_prog = mrsp_valid_i && mrsp_i.tag == TagProg;
  assign rsp_erase = mrsp_valid_i && mrsp_i.tag == TagErase;
  // A status no transaction of this die should get (a program's or erase's failure is its own).
  assign addr_bad_o = mrsp_valid_i && (mrsp_i.status == flint_pkg::MaintBadAddress ||
                                       mrsp_i.status == flint_pkg::MaintBadOp);
  logic unused_rsp;
  assign unused_rsp = ^{mrsp_i.op, mrsp_i.plane, mrsp_i.block, mrsp_i.page};

  // --- program engine: queued pages into the phantom, one after the other ---------------------
  typedef enum logic [2:0] {
    PgIdle  = 3'd0,
    PgTgt   = 3'd1,  // tgt[] of the head page at hand next cycle
    PgWait  = 3'd2,  // the last program answered
    PgReq   = 3'd3,  // ProgramPage of the head page
    PgBeats = 3'd4,  // its lines
    PgDrop  = 3'd5   // the head page is of the block being retired: its lines dropped
  } prog_e;
  prog_e pg_q, pg_d;
  logic [BlockBits-1:0] pg_y_q, pg_b_q;
  // The program asked for (the head page moves on before it is answered): block, target, page.
  logic [BlockBits-1:0] pa_b_q, pa_y_q;
  logic [PageBits-1:0] pa_page_q;
  logic [PageBits-1:0] pg_page_q;
  logic pg_pend_q;
  logic [31:0] programmed_q, erased_q;
  // The port's request choice (below), declared here: a halt leaves a held program request be.
  typedef enum logic [1:0] {
    RqScrub = 2'd0,
    RqErase = 2'd1,
    RqProg  = 2'd2
  } req_sel_e;
  req_sel_e rq_sel, rq_sel_q;
  logic rq_hold_q, req_go;
  logic pg_req, pg_go, pg_beat_go, pg_fail, pg_drop, pg_dropped;
  // Halted: no ProgramPage is offered anew (one already offered stays until taken, the
  // handshake) and the queued pages are dropped, as when no retirement is possible.
  assign pg_req = pg_q == PgReq && !halt_i;
  assign mwr_valid_o = pg_q == PgBeats && pq_valid_i;
  assign mwr_data_o = pq_data_i[DataBits-1:0];
  assign mwr_poison_o = pq_data_i[DataBits];
  assign pq_ready_o = (pg_q == PgBeats && mwr_ready_i) || pg_q == PgDrop;
  assign pg_beat_go = mwr_valid_o && mwr_ready_i;
  assign pg_fail = rsp_prog && mrsp_i.status == flint_pkg::MaintProgramFail;
  assign pg_dropped = pg_q == PgDrop && pq_valid_i && pq_last_i;
  always_comb begin
    pg_d = pg_q;
    unique case (pg_q)
      PgIdle: if (pq_valid_i) pg_d = PgTgt;
      PgTgt: pg_d = PgWait;
      PgWait: if (!pg_pend_q) pg_d = pg_drop ? PgDrop : PgReq;
      PgReq:
        if (pg_go) pg_d = PgBeats;
        else if (halt_i && !(rq_hold_q && rq_sel_q == RqProg)) pg_d = PgDrop;
      PgBeats: if (pg_beat_go && pq_last_i) pg_d = PgIdle;
      PgDrop: if (pg_dropped) pg_d = PgIdle;
      default: pg_d = PgIdle;
    endcase
  end
  // A program counts when its last line is in (the sequencer programs it next); it is pending
  // until answered.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pg_q <= PgIdle;
      pg_y_q <= '0;
      pg_b_q <= '0;
      pg_page_q <= '0;
      pg_pend_q <= 1'b0;
      pa_b_q <= '0;
      pa_y_q <= '0;
      pa_page_q <= '0;
      programmed_q <= '0;
    end else begin
      pg_q <= pg_d;
      if (pg_q == PgTgt) begin
        pg_page_q <= pq_page_i;
        pg_b_q <= pq_block_i;
      end
      if (pg_q == PgWait) pg_y_q <= tgt_rd_i;
      if (pg_go) begin
        pg_pend_q <= 1'b1;
        pa_b_q <= pg_b_q;
        pa_y_q <= pg_y_q;
        pa_page_q <= pg_page_q;
      end else if (rsp_prog) begin
        pg_pend_q <= 1'b0;
      end
      if (pg_beat_go && pq_last_i) programmed_q <= programmed_q + 1'b1;
    end
  end
  assign pg_idle_o = pg_q == PgIdle;
  assign pg_pend_o = pg_pend_q;
  assign programmed_o = programmed_q;

  // --- retiring a block of P: pause, drain, MarkBad, Alloc, restart ----------------------------
  typedef enum logic [2:0] {
    RtIdle  = 3'd0,
    RtDrain = 3'd1,  // the copy paused: until the queue is empty and no page is under way
    RtMark  = 3'd2,  // MarkBad of the failed block (a Reserved block: its reservation dropped)
    RtAlloc = 3'd3,  // Alloc of another block of P for the logical block
    RtSet   = 3'd4,  // the copy of the block restarts at its page 0 (a cycle)
    RtDead  = 3'd5   // no retirement possible: the parent halts; queued pages are dropped
  } retire_e;
  retire_e rt_q, rt_d;
  logic [BlockBits-1:0] rt_b_q, rt_y_q, rt_new_q;
  logic [CountBits-1:0] rt_undo_q;
  logic [31:0] retired_prog_q;
  logic rt_ans_ok, rt_no_free;
  assign rt_ans_ok = rc_rsp_valid_i && rc_rsp_status_i == flint_pkg::FtlOk;
  assign rt_no_free = rc_rsp_valid_i && rc_rsp_status_i == flint_pkg::FtlNoFree;
  always_comb begin
    rt_d = rt_q;
    unique case (rt_q)
      RtIdle:  if (pg_fail) rt_d = RtDrain;
      // A failure of another block's page while draining cannot be retired too: halt.
      RtDrain: if (pg_fail) rt_d = RtDead;
               else if (quiet_i && pg_q == PgIdle && !pg_pend_q) rt_d = RtMark;
      RtMark:  if (rc_rsp_valid_i) rt_d = rt_ans_ok ? RtAlloc : RtDead;
      RtAlloc: if (rc_rsp_valid_i) rt_d = rt_ans_ok ? RtSet : RtDead;
      RtSet:   rt_d = RtIdle;
      default: rt_d = RtDead;
    endcase
  end
  // The head page is dropped if it is of the block being retired (or if retiring failed).
  assign pg_drop = rt_q == RtDead || halt_i || (rt_q != RtIdle && pg_b_q == rt_b_q);
  // The pages of the block counted as copied: those up to the failed one, and each dropped.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rt_q <= RtIdle;
      rt_b_q <= '0;
      rt_y_q <= '0;
      rt_new_q <= '0;
      rt_undo_q <= '0;
      retired_prog_q <= '0;
    end else begin
      rt_q <= rt_d;
      if (rt_q == RtIdle && pg_fail) begin
        rt_b_q <= pa_b_q;
        rt_y_q <= pa_y_q;
        rt_undo_q <= CountBits'(pa_page_q) + 1'b1;
      end else if (rt_q == RtDrain && pg_dropped && pg_b_q == rt_b_q) begin
        rt_undo_q <= rt_undo_q + 1'b1;
      end
      if (rt_q == RtAlloc && rt_ans_ok) rt_new_q <= rc_rsp_block_i;
      if (rt_q == RtMark && rt_ans_ok) retired_prog_q <= retired_prog_q + 1'b1;
    end
  end
  assign retiring_o = rt_q != RtIdle;
  assign rt_mark_o = rt_q == RtMark;
  assign rt_alloc_o = rt_q == RtAlloc;
  assign rt_block_o = rt_b_q;
  assign rt_pblock_o = rt_y_q;
  assign restart_o = rt_q == RtSet;
  assign rt_new_o = rt_new_q;
  assign rt_undo_o = rt_undo_q;
  assign no_spare_o = rt_q == RtAlloc && rt_no_free;
  assign rt_refused_o = (rt_q == RtMark && rc_rsp_valid_i && !rt_ans_ok) ||
                        (rt_q == RtAlloc && rc_rsp_valid_i && !rt_ans_ok && !rt_no_free);
  assign prog_fail_o = rt_q == RtDrain && pg_fail;
  assign retired_prog_o = retired_prog_q;

  // --- erase engine -----------------------------------------------------------------------------
  typedef enum logic [2:0] {
    ErNext    = 3'd0,  // next block of S
    ErCmd     = 3'd1,  // EraseBlock
    ErWait    = 3'd2,  // its answer
    ErRelease = 3'd3,  // Release (relocation table)
    ErCount   = 3'd4   // read-count reset
  } erase_e;
  erase_e er_q, er_d;
  logic er_req, er_go, er_fail, er_bad_q;
  logic [31:0] retired_erase_q;
  assign er_req = erase_i && er_q == ErCmd;
  assign er_fail = er_q == ErWait && rsp_erase && mrsp_i.status == flint_pkg::MaintEraseFail;
  always_comb begin
    er_d = er_q;
    if (erase_i) begin
      unique case (er_q)
        ErNext: if (erase_more_i) er_d = erase_live_i ? ErCmd : ErRelease;
        ErCmd: if (er_go) er_d = ErWait;
        ErWait: if (rsp_erase) er_d = ErRelease;
        ErRelease: if (rc_rsp_valid_i) er_d = ErCount;
        ErCount: if (cc_rsp_valid_i) er_d = ErNext;
        default: er_d = ErNext;
      endcase
    end
    if (erase_start_i) er_d = ErNext;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      er_q <= ErNext;
      erased_q <= '0;
      er_bad_q <= 1'b0;
      retired_erase_q <= '0;
    end else begin
      er_q <= er_d;
      if (er_go) erased_q <= erased_q + 1'b1;
      // A failed erase: the block is marked bad instead of released.
      if (er_fail) er_bad_q <= 1'b1;
      else if (er_q == ErRelease && rc_rsp_valid_i) er_bad_q <= 1'b0;
      if (er_q == ErRelease && er_bad_q && rc_rsp_valid_i &&
          rc_rsp_status_i == flint_pkg::FtlOk) begin
        retired_erase_q <= retired_erase_q + 1'b1;
      end
    end
  end
  assign er_release_o = er_q == ErRelease;
  assign er_bad_o = er_bad_q;
  assign retired_erase_o = retired_erase_q;
  assign er_count_o = er_q == ErCount;
  assign erased_o = erased_q;

  // --- requests to the sequencer: scrubber, then erase, then program; held once offered -------
  always_comb begin
    rq_sel = sc_req_i ? RqScrub : (er_req ? RqErase : RqProg);
    if (rq_hold_q) rq_sel = rq_sel_q;
  end
  assign mreq_valid_o = rq_hold_q || sc_req_i || er_req || pg_req;
  assign req_go = mreq_valid_o && mreq_ready_i;
  assign sc_go_o = req_go && rq_sel == RqScrub;
  assign er_go = req_go && rq_sel == RqErase;
  assign pg_go = req_go && rq_sel == RqProg;
  always_comb begin
    mreq_o = '0;
    unique case (rq_sel)
      RqScrub: begin
        mreq_o.tag = TagScrub;
        mreq_o.op = flint_pkg::MaintReadPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(source_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(sc_pblock_i);
        mreq_o.page = flint_pkg::MaintPageBits'(sc_page_i);
      end
      RqErase: begin
        mreq_o.tag = TagErase;
        mreq_o.op = flint_pkg::MaintEraseBlock;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(source_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(erase_block_i);
      end
      default: begin
        mreq_o.tag = TagProg;
        mreq_o.op = flint_pkg::MaintProgramPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(phantom_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(pg_y_q);
        mreq_o.page = flint_pkg::MaintPageBits'(pg_page_q);
      end
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_hold_q <= 1'b0;
      rq_sel_q <= RqScrub;
    end else begin
      rq_hold_q <= mreq_valid_o && !mreq_ready_i;
      rq_sel_q <= rq_sel;
    end
  end

  // Programs only into the phantom.
  `FLINT_ASSERT_IMPLY(ProgramOnlyPhantom, mreq_valid_o &&
                      mreq_o.op == flint_pkg::MaintProgramPage,
                      mreq_o.plane == flint_pkg::MaintPlaneBits'(phantom_i))
  // Each engine one transaction at a time: an answer only for one asked for, program beats only
  // after the program's request.
  `FLINT_ASSERT_IMPLY(ProgAnswerAsked, rsp_prog, pg_pend_q)
  `FLINT_ASSERT_IMPLY(EraseAnswerAsked, rsp_erase, er_q == ErWait)
  `FLINT_ASSERT_IMPLY(OneProgramAsked, pg_go, !pg_pend_q)
  `FLINT_ASSERT_IMPLY(RequestHeld, $past(mreq_valid_o && !mreq_ready_i),
                      mreq_valid_o && $stable(mreq_o))
  // Nothing is programmed into a block being retired: the pages of its logical block are dropped
  // until the copy restarts; the restart comes with nothing queued or under way.
  `FLINT_ASSERT_IMPLY(NoProgramRetiring, pg_go && rt_q != RtIdle,
                      pg_b_q != rt_b_q && rt_q != RtDead)
  // A program's answer names the page asked for (the one a failure retires).
  `FLINT_ASSERT_IMPLY(AnswerNamesAsked, rsp_prog,
                      mrsp_i.block == flint_pkg::MaintBlockBits'(pa_y_q) &&
                      mrsp_i.page == flint_pkg::MaintPageBits'(pa_page_q) &&
                      mrsp_i.plane == flint_pkg::MaintPlaneBits'(phantom_i))
  `FLINT_ASSERT_IMPLY(RestartQuiet, rt_q == RtSet, quiet_i && pg_q == PgIdle && !pg_pend_q)
  `FLINT_ASSERT_IMPLY(EraseFailMarked, er_bad_q, er_q == ErRelease)
  `FLINT_COVER(c_program, pg_go)
  `FLINT_COVER(c_requests_contend, $countones({sc_req_i, er_req, pg_req}) > 1)
  // Bad blocks during the rotation: a program failure retired and its copy restarted, a page of
  // the retired block dropped from the queue, no spare block on P, a second failure while
  // retiring, an erase failure retired.
  `FLINT_COVER(c_retire_program, rt_q == RtMark && rt_ans_ok)
  `FLINT_COVER(c_retire_restart, rt_q == RtSet)
  `FLINT_COVER(c_retire_drop, pg_dropped && rt_q == RtDrain)
  `FLINT_COVER(c_retire_no_spare, no_spare_o)
  `FLINT_COVER(c_retire_second_fail, prog_fail_o)
  `FLINT_COVER(c_retire_erase, er_q == ErRelease && er_bad_q && rc_rsp_valid_i)
endmodule
`default_nettype wire
