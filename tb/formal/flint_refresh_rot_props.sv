// Formal property wrapper of a refresh die's write side (docs/formal.md, proof `rotation`; run by
// scripts/formal.py): flint_refresh_step (the phase FSM, P and S), flint_refresh_copy (the program
// and erase engines and the die's one port on its maintenance sequencer) and flint_refresh_cmd
// (the relocation-table and counter commands), wired as flint_refresh_die wires them (the same
// phase gating, `copying`, `drained`, `quiet`). The rest of the die (program queue, fork,
// scrubber, tables, source choice) and its surroundings (sequencer, relocation table, counters,
// loader) are free inputs held to the contracts below. Issue #24's missing invariant, "only the
// phantom plane is ever programmed or erased" (docs/refresh.md, Q2, "How the switch maps onto
// the FTL", "The switch and the erase"), proven by induction at the formal_tiny config (2 + 1
// planes of 2 blocks of 2 pages):
//   (a) every ProgramPage the die offers names the current phantom P, and is offered in the copy
//       phase (or the halt that ended it) before any Commit of the step, so P holds no live
//       block; its lines and the program in flight too;
//   (b) every EraseBlock names the step's source S (never P) and block idx of the erase phase, a
//       block that held a live logical block, is taken once a step per block, and is offered
//       only in the erase phase: after all Blocks block indices of the step were committed (the
//       Settle cycles and the vacate wait in between); P moves only when the erase phase ends,
//       and then to S (S becomes the phantom once vacated and erased);
//   (c) no program or erase while the die is off; once the die has an error (err_o) no program
//       or erase is offered anew (one offered before stays until taken: the handshake). The
//       program half holds since the copy engine's halt_i (docs/formal.md, "Found").
// Environment (assumed; each is a contract of a block outside the scope; docs/formal.md says
// where each is checked):
//   - reset in the first cycle; one load: once enabled the die stays enabled, live_blocks_i
//     stays and is at most Blocks (a die disabled mid-rotation is not covered: ALLOW_DISABLE);
//   - the sequencer answers only a transaction in flight, with its tag, a program only after its
//     lines, naming the page asked for (flint_maint_seq; the copy's AnswerNamesAsked);
//   - the relocation table and the counters answer only a command in flight; tgt[] of a held
//     Commit's block stays on the tables' read port (the cmd's CmdHeld);
//   - the source choice picks a plane of the die that is not the phantom (the step's
//     SourceNotPhantom);
//   - the queue side (program queue, fork, scrubber) starts work (a queued page, a page taken or
//     open, a scrub read) only after a cycle that was copying (`copying` of flint_refresh_die)
//     with pages left (done < total); the scrubber asks for a read and is answered only while
//     busy, and holds its request; a page counts once (done < total), one a cycle, never in a
//     restart's cycle, and a restart takes back no more pages than were counted (the step's
//     CountBounded and RestartAlone).
// tap_* inputs are bound by scripts/formal.py to internal signals.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the blocks reset on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_refresh_rot_props #(
  parameter int unsigned Settle = 1,
  // do not override
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned CountBits = $clog2(flint_cfg_pkg::Blocks * flint_cfg_pkg::Pages + 1),
  localparam int unsigned OccBits   = $clog2(flint_cfg_pkg::ProgqPages + 1),
  localparam int unsigned RcW       = flint_pkg::RelocCmdWidth,
  localparam int unsigned SetBits   = $clog2(Settle + 1)
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   enable_i,
  input logic [BlockBits:0]     live_blocks_i,
  input logic [PhysPl-1:0]      res_planes_i,
  // the source choice (flint_refresh_choose)
  input logic                   hit_i,
  input logic [PPlBits-1:0]     pick_i,
  // the program queue's head, tgt[] of its block, its occupancy (flint_progq, flint_refresh_tables)
  input logic                   pq_valid_i,
  input logic [BlockBits-1:0]   pq_block_i,
  input logic [PageBits-1:0]    pq_page_i,
  input logic                   pq_last_i,
  input logic [DataBits:0]      pq_data_i,
  input logic [OccBits-1:0]     pq_occ_i,
  input logic [BlockBits-1:0]   tgt_rd_i,
  // the fork and the scrubber (flint_refresh_fork, flint_refresh_scrub)
  input logic                   fk_take_i,
  input logic                   fk_open_i,
  input logic                   fk_done_i,
  input logic                   sc_busy_i,
  input logic                   sc_req_i,
  input logic [BlockBits-1:0]   sc_x_i,
  input logic [PageBits-1:0]    sc_p_i,
  input logic                   sc_page_in_i,
  // the maintenance sequencer
  input logic                   mreq_ready_i,
  input logic                   mwr_ready_i,
  input logic                   mrsp_valid_i,
  input flint_pkg::maint_rsp_t  mrsp_i,
  // the relocation table and the counters
  input logic                   rc_ready_i,
  input logic                   rc_rsp_valid_i,
  input flint_pkg::ftl_status_e rc_rsp_status_i,
  input flint_pkg::blk_state_e  rc_rsp_state_i,
  input logic [PPlBits-1:0]     rc_rsp_plane_i,
  input logic [BlockBits-1:0]   rc_rsp_block_i,
  input logic [LPlBits-1:0]     rc_rsp_lplane_i,
  input logic [BlockBits-1:0]   rc_rsp_lblock_i,
  input logic                   cc_ready_i,
  input logic                   cc_rsp_valid_i,
  // bound to internals by scripts/formal.py
  input logic [2:0]             tap_pg,            // flint_refresh_copy: program engine state
  input logic [2:0]             tap_rt,            // retire state
  input logic [2:0]             tap_er,            // erase engine state
  input logic                   tap_er_bad,
  input logic                   tap_hold,          // a request offered and not taken
  input logic [1:0]             tap_sel,           // the held request's engine
  input logic                   tap_cm_al,         // flint_refresh_cmd: commit's Alloc state
  input logic                   tap_al,
  input logic [Blocks-1:0]      tap_xlive,         // flint_refresh_step: S's live blocks
  input logic [BlockBits-1:0]   tap_rt_b,          // the logical block being retired
  input logic [BlockBits-1:0]   tap_pg_b,          // the head page's logical block
  input logic                   tap_cm_ready,      // flint_refresh_cmd: commit's tgt[] read
  input logic                   tap_cc_wait,       // flint_refresh_cmd: a count reset in flight
  input logic [SetBits-1:0]     tap_settle,        // flint_refresh_step: cycles settled
  input logic [BlockBits-1:0]   tap_pa_y,          // the program asked for: block, page
  input logic [PageBits-1:0]    tap_pa_page
);
  // --- the die's wiring (flint_refresh_die) ----------------------------------------------------
  flint_pkg::refresh_phase_e ph;
  logic choose_enter, copy_start, erase_start, idx_live;
  logic [BlockBits:0] idx;
  logic [CountBits-1:0] total, done;
  logic [PPlBits-1:0] p, s;
  logic [LPlBits-1:0] ls;
  logic rc_wait, copying, retiring, err;
  logic [2:0] err_code;
  logic [31:0] rotations;
  assign copying = ph == flint_pkg::RefreshCopy && !retiring;

  logic pq_ready, pg_idle, pg_pend, er_release, er_bad, er_count, prog_fail, rt_refused, rsp_bad;
  logic rt_mark, rt_alloc, rt_set, no_spare, sc_go, sc_rsp;
  logic [BlockBits-1:0] rt_b, rt_y, rt_new;
  logic [CountBits-1:0] rt_undo;
  logic mreq_valid, mwr_valid, mwr_poison, mrsp_ready;
  flint_pkg::maint_req_t mreq;
  logic [DataBits-1:0] mwr_data;
  logic [31:0] programmed, erased, retired_prog, retired_erase;
  flint_refresh_copy u_copy (
    .clk_i, .rst_ni,
    .phantom_i(p), .source_i(s), .halt_i(err),
    .sc_req_i, .sc_pblock_i(sc_x_i), .sc_page_i(sc_p_i), .sc_go_o(sc_go), .sc_rsp_o(sc_rsp),
    .pq_valid_i, .pq_ready_o(pq_ready), .pq_block_i, .pq_page_i,
    .pq_last_i, .pq_data_i, .tgt_rd_i, .pg_idle_o(pg_idle),
    .pg_pend_o(pg_pend),
    .quiet_i(pq_occ_i == '0 && !pq_valid_i && !fk_take_i && !fk_open_i && !sc_busy_i),
    .retiring_o(retiring), .rt_mark_o(rt_mark), .rt_alloc_o(rt_alloc), .rt_block_o(rt_b),
    .rt_pblock_o(rt_y), .restart_o(rt_set), .rt_new_o(rt_new), .rt_undo_o(rt_undo),
    .no_spare_o(no_spare),
    .erase_i(ph == flint_pkg::RefreshErase), .erase_start_i(erase_start),
    .erase_more_i(32'(idx) < Blocks), .erase_block_i(idx[BlockBits-1:0]),
    .erase_live_i(idx_live), .rc_rsp_valid_i, .rc_rsp_status_i,
    .rc_rsp_block_i, .cc_rsp_valid_i,
    .er_release_o(er_release), .er_bad_o(er_bad), .er_count_o(er_count),
    .prog_fail_o(prog_fail), .rt_refused_o(rt_refused), .addr_bad_o(rsp_bad),
    .mreq_valid_o(mreq_valid), .mreq_ready_i, .mreq_o(mreq), .mwr_valid_o(mwr_valid),
    .mwr_ready_i, .mwr_data_o(mwr_data), .mwr_poison_o(mwr_poison), .mrsp_valid_i,
    .mrsp_ready_o(mrsp_ready), .mrsp_i,
    .programmed_o(programmed), .erased_o(erased), .retired_prog_o(retired_prog),
    .retired_erase_o(retired_erase));

  logic rc_valid, rc_rsp_ready, cc_valid, cm_rsp, upd_valid, tgt_al, cmd_no_spare, cmd_reloc;
  logic [RcW-1:0] rc_op;
  logic [PPlBits-1:0] rc_plane, cc_plane;
  logic [BlockBits-1:0] rc_block, cc_block, upd_pblock;
  flint_refresh_cmd u_cmd (
    .clk_i, .rst_ni,
    .query_i(ph == flint_pkg::RefreshQuery && !err),
    .alloc_i(ph == flint_pkg::RefreshAlloc && !err),
    .copy_i(ph == flint_pkg::RefreshCopy && !err),
    .commit_i(ph == flint_pkg::RefreshCommit && !err),
`ifndef BREAK_ERR_GATE
    .erase_i(ph == flint_pkg::RefreshErase && !err), .idx_i(idx), .live_blocks_i,
`else  // broken copy (scripts/formal.py, design_no_halt): the die's error gate left out
    .erase_i(ph == flint_pkg::RefreshErase), .idx_i(idx), .live_blocks_i,
`endif
    .phantom_i(p), .source_i(s), .ls_i(ls), .tgt_rd_i,
    .rt_mark_i(rt_mark), .rt_alloc_i(rt_alloc), .rt_block_i(rt_b), .rt_pblock_i(rt_y),
    .er_release_i(er_release), .er_bad_i(er_bad), .er_count_i(er_count),
    .rc_valid_o(rc_valid), .rc_ready_i, .rc_op_o(rc_op), .rc_plane_o(rc_plane),
    .rc_block_o(rc_block), .rc_rsp_valid_i, .rc_rsp_ready_o(rc_rsp_ready), .rc_rsp_status_i,
    .rc_rsp_plane_i, .cc_valid_o(cc_valid), .cc_ready_i, .cc_plane_o(cc_plane),
    .cc_block_o(cc_block), .cc_rsp_valid_i,
    .wait_o(rc_wait), .commit_ans_o(cm_rsp), .upd_valid_o(upd_valid),
    .upd_pblock_o(upd_pblock), .tgt_we_o(tgt_al), .no_spare_o(cmd_no_spare),
    .reloc_o(cmd_reloc));

  logic drained;
  assign drained = pq_occ_i == '0 && pg_idle && !pq_valid_i && !pg_pend && !fk_take_i &&
                   !fk_open_i && !sc_busy_i && !retiring;
  flint_refresh_step #(.Mode(0), .Settle(Settle)) u_step (
    .clk_i, .rst_ni, .enable_i, .live_blocks_i, .res_planes_i,
    .hit_i, .pick_i,
    .rc_rsp_valid_i, .rc_rsp_state_i, .rc_rsp_lplane_i, .rc_rsp_lblock_i, .rc_wait_i(rc_wait),
    .commit_ans_i(cm_rsp), .er_count_i(er_count), .cc_rsp_valid_i,
    .page_in_i(fk_done_i || sc_page_in_i),
    .drained_i(drained),
    .restart_i(rt_set), .undo_i(rt_undo),
    .no_spare_i(no_spare || cmd_no_spare), .prog_fail_i(prog_fail),
    .reloc_i(cmd_reloc || rt_refused), .addr_bad_i(rsp_bad),
    .phase_o(ph), .choose_enter_o(choose_enter), .copy_start_o(copy_start),
    .erase_start_o(erase_start), .idx_o(idx), .total_o(total), .done_o(done),
    .phantom_o(p), .source_o(s), .ls_o(ls), .idx_live_o(idx_live), .rotations_o(rotations),
    .err_o(err), .err_code_o(err_code));

  logic unused;
  assign unused = ^{choose_enter, copy_start, pq_ready, sc_go, sc_rsp, rt_new, mwr_poison,
                    mrsp_ready, mwr_data, programmed, erased, retired_prog, retired_erase, rc_valid,
                    rc_rsp_ready, cc_valid, upd_valid, tgt_al, rc_op, rc_plane, cc_plane, rc_block,
                    cc_block, upd_pblock, err_code, rotations, mreq.page};

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  localparam logic [flint_pkg::MaintTagBits-1:0] TagScrub = flint_pkg::MaintTagBits'(0);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagProg  = flint_pkg::MaintTagBits'(1);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagErase = flint_pkg::MaintTagBits'(2);
  // flint_refresh_copy's state codes (its enums are local to it).
  localparam logic [2:0] PgIdle = 3'd0, PgReq = 3'd3, PgBeats = 3'd4, PgDrop = 3'd5;
  localparam logic [2:0] RtIdle = 3'd0, RtMark = 3'd2, RtAlloc = 3'd3, RtSet = 3'd4, RtDead = 3'd5;
  localparam logic [2:0] ErNext = 3'd0, ErCmd = 3'd1, ErWait = 3'd2, ErRelease = 3'd3,
                         ErCount = 3'd4;
  localparam logic [1:0] RqScrub = 2'd0, RqErase = 2'd1, RqProg = 2'd2;

  // --- ghosts: transactions in flight, the step's commits and erases --------------------------
  logic taken;
  assign taken = mreq_valid && mreq_ready_i;
  logic fl_scrub_q, fl_prog_q, fl_erase_q;  // a transaction of the engine in the sequencer
  logic fl_cc_q;                            // a read-count reset in the counters
  logic [7:0] commits_q;                    // Commit answers of the step
  logic [Blocks-1:0] erased_q;              // S's blocks erased this step (EraseBlock taken)
  logic busy_q, copying_q;                  // the queue side's work, copying a page: last cycle
  logic rst_q, en_q, rc_held_q, req_held_q;  // last cycle: reset, enable, a held command, request
  logic [BlockBits-1:0] tgt_q;
  logic [PPlBits-1:0] p_q, s_q;
  flint_pkg::refresh_phase_e ph_q;
  logic busy;
  assign busy = pq_occ_i != '0 || pq_valid_i || fk_take_i || fk_open_i || sc_busy_i;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fl_scrub_q <= 1'b0;
      fl_prog_q <= 1'b0;
      fl_erase_q <= 1'b0;
      fl_cc_q <= 1'b0;
      commits_q <= '0;
      erased_q <= '0;
      busy_q <= 1'b0;
      copying_q <= 1'b0;
      en_q <= 1'b0;
    end else begin
      en_q <= enable_i;
      if (taken && mreq.tag == TagScrub) fl_scrub_q <= 1'b1;
      else if (mrsp_valid_i && mrsp_i.tag == TagScrub) fl_scrub_q <= 1'b0;
      if (taken && mreq.tag == TagProg) fl_prog_q <= 1'b1;
      else if (mrsp_valid_i && mrsp_i.tag == TagProg) fl_prog_q <= 1'b0;
      if (taken && mreq.tag == TagErase) fl_erase_q <= 1'b1;
      else if (mrsp_valid_i && mrsp_i.tag == TagErase) fl_erase_q <= 1'b0;
      if (cc_valid && cc_ready_i) fl_cc_q <= 1'b1;
      else if (cc_rsp_valid_i) fl_cc_q <= 1'b0;
      if (ph == flint_pkg::RefreshChoose && hit_i) commits_q <= '0;
      else if (cm_rsp) commits_q <= commits_q + 1'b1;
      if (ph == flint_pkg::RefreshChoose && hit_i) erased_q <= '0;
      else if (taken && mreq.op == flint_pkg::MaintEraseBlock) begin
        erased_q[mreq.block[BlockBits-1:0]] <= 1'b1;
      end
      busy_q <= busy;
      copying_q <= copying && done < total;
    end
  end
  logic [BlockBits:0] live_q;
  always @(posedge clk_i) begin
    rst_q <= rst_ni;
    live_q <= live_blocks_i;
    rc_held_q <= rc_valid && !rc_ready_i;
    req_held_q <= rst_ni && mreq_valid && !mreq_ready_i;
    tgt_q <= tgt_rd_i;
    p_q <= p;
    s_q <= s;
    ph_q <= ph;
  end

  // --- environment ------------------------------------------------------------------------------
  always @(*) begin
    if (rst_ni && !f_init_q) begin
      // The sequencer: an answer only for a transaction in flight; a program's names its page.
      if (mrsp_valid_i) begin
        assume (mrsp_i.tag == TagScrub || mrsp_i.tag == TagProg || mrsp_i.tag == TagErase);
        if (mrsp_i.tag == TagScrub) assume (fl_scrub_q);
        if (mrsp_i.tag == TagProg) assume (fl_prog_q && tap_pg != PgBeats);  // after its lines
        if (mrsp_i.tag == TagErase) assume (fl_erase_q);
        if (mrsp_i.tag == TagProg) begin
          assume (mrsp_i.block == flint_pkg::MaintBlockBits'(tap_pa_y) &&
                  mrsp_i.page == flint_pkg::MaintPageBits'(tap_pa_page) &&
                  mrsp_i.plane == flint_pkg::MaintPlaneBits'(p));
        end
      end
      // The table and the counters: an answer only for a command in flight.
      if (rc_rsp_valid_i) assume (rc_wait);
      if (cc_rsp_valid_i) assume (fl_cc_q);
      // One load: once enabled the die stays enabled, and the count of live blocks stays
      // (a die disabled in the middle of a rotation is not covered: docs/formal.md).
`ifndef ALLOW_DISABLE
      if (en_q) assume (enable_i && live_blocks_i == live_q);
`else
      if (enable_i || en_q) assume (live_blocks_i == live_q);
`endif
      // The load fills at most every block of a plane (flint_loader's live_blocks_o).
      assume (32'(live_blocks_i) <= Blocks);
      // The tables: tgt[] of the block a held Commit names stays on the read port (the tables
      // read tgt[idx] every cycle of the commit phase; the cmd's CmdHeld checks it).
      if (rc_held_q) assume (tgt_rd_i == tgt_q);
      // The choice: a plane of the die, not the phantom.
      if (hit_i) assume (pick_i != p && 32'(pick_i) < PhysPl);
      if (fk_done_i || sc_page_in_i) assume (done < total && !rt_set);
      if (rt_set) assume (rt_undo <= done);
    end
  end
  // The queue side, in reset too (it resets with the die): work starts only after a cycle that
  // was copying with pages left to copy; a scrub read only while busy; one page a cycle.
  always @(*) begin
    if (busy && !busy_q) assume (copying_q);
    if (sc_req_i || fl_scrub_q) assume (sc_busy_i);
    if (fk_done_i) assume (!sc_page_in_i && fk_open_i);  // a page's last line: it is open
    if (sc_page_in_i) assume (sc_busy_i);
  end
  logic sc_wait_q;
  logic [BlockBits+PageBits-1:0] sc_addr_q;
  always @(posedge clk_i) begin
    sc_wait_q <= rst_ni && sc_req_i && !sc_go;
    sc_addr_q <= {sc_x_i, sc_p_i};
  end
  always @(*) begin
    if (rst_ni && !f_init_q && sc_wait_q) assume (sc_req_i && {sc_x_i, sc_p_i} == sc_addr_q);
  end

  // --- properties -------------------------------------------------------------------------------
  logic is_prog, is_erase;
  assign is_prog = mreq_valid && mreq.op == flint_pkg::MaintProgramPage;
  assign is_erase = mreq_valid && mreq.op == flint_pkg::MaintEraseBlock;
  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      // (a) A ProgramPage names the phantom, from the copy phase (or the halt that ended it),
      // before any commit of the step: P holds no live block then.
      if (is_prog) begin
        assert (mreq.plane == flint_pkg::MaintPlaneBits'(p));
        assert ((ph == flint_pkg::RefreshCopy || ph == flint_pkg::RefreshHalt) &&
                commits_q == 8'd0);
      end
      // ... and its lines and the program in flight too.
      if (mwr_valid || pg_pend) begin
        assert ((ph == flint_pkg::RefreshCopy || ph == flint_pkg::RefreshHalt) &&
                commits_q == 8'd0);
      end
      // (b) An EraseBlock names S (never P), block idx of the erase phase, a block that held a
      // live block, once a step, after every block index of the step was committed.
      if (is_erase) begin
        assert (mreq.plane == flint_pkg::MaintPlaneBits'(s) && s != p);
        assert (ph == flint_pkg::RefreshErase && commits_q == 8'(Blocks));
        assert (mreq.block == flint_pkg::MaintBlockBits'(idx[BlockBits-1:0]) &&
                32'(idx) < Blocks && tap_xlive[idx[BlockBits-1:0]]);
        if (mreq_ready_i) assert (!erased_q[idx[BlockBits-1:0]]);
      end
      // (c) No program or erase offered while the die is off; once halted none is offered anew
      // (one offered before stays until taken: the handshake).
      if (is_prog || is_erase || mwr_valid) assert (ph != flint_pkg::RefreshOff);
      if ((is_prog || is_erase) && !req_held_q) assert (!err && ph != flint_pkg::RefreshHalt);
    end
  end

  // --- induction invariants ---------------------------------------------------------------------
  // What a reachable state looks like, phase by phase: the engines' states, the transactions in
  // flight, the commands, the ghosts. Not properties of the design's contract; they let the
  // induction step close (without them a stall repeats an unreachable state for ever).
  logic ph_off, ph_choose, ph_query, ph_alloc, ph_copy, ph_commit, ph_settle, ph_vacate, ph_erase,
        ph_halt;
  assign ph_off = ph == flint_pkg::RefreshOff;
  assign ph_choose = ph == flint_pkg::RefreshChoose;
  assign ph_query = ph == flint_pkg::RefreshQuery;
  assign ph_alloc = ph == flint_pkg::RefreshAlloc;
  assign ph_copy = ph == flint_pkg::RefreshCopy;
  assign ph_commit = ph == flint_pkg::RefreshCommit;
  assign ph_settle = ph == flint_pkg::RefreshSettle;
  assign ph_vacate = ph == flint_pkg::RefreshVacate;
  assign ph_erase = ph == flint_pkg::RefreshErase;
  assign ph_halt = ph == flint_pkg::RefreshHalt;
  logic prog_work;  // the program side has work: queued, under way, asked for, retiring
  assign prog_work = busy || tap_pg != PgIdle || pg_pend || fl_prog_q || tap_rt != RtIdle ||
                     (tap_hold && tap_sel == RqProg);
  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      assert (ph_off || ph_choose || ph_query || ph_alloc || ph_copy || ph_commit || ph_settle ||
              ph_vacate || ph_erase || ph_halt);
      assert (tap_pg <= PgDrop && tap_rt <= RtDead && tap_er <= ErCount && tap_sel <= RqProg);
      // Off: only before the first enable, everything as reset left it.
      if (ph_off) begin
        assert (!en_q && !err && !prog_work && tap_er == ErNext && !tap_hold && !fl_scrub_q &&
                !fl_erase_q && !fl_cc_q && !rc_wait && commits_q == 8'd0 && erased_q == '0);
        assert (p == PPlBits'(flint_cfg_pkg::Planes) && !tap_cm_al && !tap_al && !tap_er_bad);
      end
      if (!ph_off) assert (en_q);
      // The step's commits: none before the commit phase, idx of them in it, all after it.
      if (ph_query || ph_alloc || ph_copy) assert (commits_q == 8'd0);
      if (ph_commit) assert (commits_q == 8'(idx) && 32'(idx) <= Blocks);
      if (ph_settle || ph_vacate || ph_erase) assert (commits_q == 8'(Blocks));
      if (ph_halt || ph_choose) assert (commits_q <= 8'(Blocks));
      if (ph_query || ph_erase) assert (32'(idx) <= Blocks);
      if (ph_alloc) assert (32'(idx) <= Blocks);
      if (ph_settle) assert (32'(tap_settle) <= Settle);
      // The program side works only in the copy phase (or the halt that ended it), before any
      // commit; a program in flight is the engine's pending one.
      assert (fl_prog_q == pg_pend);
      if (prog_work) assert ((ph_copy || ph_halt) && commits_q == 8'd0);
      if (tap_pg == PgBeats) assert (pg_pend);
      if (tap_pg == PgReq) assert (!pg_pend);
      if (tap_pg == PgReq && tap_rt != RtIdle) assert (tap_pg_b != tap_rt_b && tap_rt != RtDead);
      if (tap_hold && tap_sel == RqProg) assert (tap_pg == PgReq);
      if (tap_hold && tap_sel == RqScrub) assert (sc_wait_q);
      if (fl_scrub_q || sc_wait_q) assert ((ph_copy || ph_halt) && commits_q == 8'd0);
      // Retiring: from MarkBad to the restart, nothing else under way, in the copy phase; an
      // error seen while it drained stops it at MarkBad (the commands are gated by the error).
      if (tap_rt == RtMark || tap_rt == RtAlloc || tap_rt == RtSet) begin
        assert (!busy && tap_pg == PgIdle && !pg_pend && !tap_hold);
        assert ((ph_copy && !err) ||
                (err && (ph_copy || ph_halt) && tap_rt == RtMark && !rc_wait));
      end
      // The erase engine: only in the erase phase (or the halt that ended it).
      if (!ph_erase && !ph_halt) begin
        assert (tap_er == ErNext && !fl_erase_q && !fl_cc_q && !tap_er_bad);
        assert (!(tap_hold && tap_sel == RqErase));
      end
      if (!ph_erase && !ph_halt && !ph_choose) assert (erased_q == '0);
      if (fl_erase_q) assert (tap_er == ErWait);
      // Asking for an erase and waiting for it, nothing else is in flight: no error can come.
      if (tap_er == ErCmd || tap_er == ErWait) begin
        assert (ph_erase && !err && !rc_wait && !fl_cc_q && !prog_work && !fl_scrub_q);
      end
      if (ph_erase && tap_er == ErNext) assert (!rc_wait && !fl_cc_q);
      if (fl_cc_q) assert (tap_er == ErCount);
      assert (fl_cc_q == tap_cc_wait);
      if (tap_er_bad) assert (tap_er == ErRelease);
      if (tap_hold && tap_sel == RqErase) assert (tap_er == ErCmd && ph_erase && !err);
      if (ph_erase && tap_er != ErNext) begin
        assert (32'(idx) < Blocks);
      end
      if (ph_erase && tap_er == ErCmd) assert (tap_xlive[idx[BlockBits-1:0]]);
      if (ph_erase) begin
        for (int b = 0; b < Blocks; b++) begin
          if (32'(b) > 32'(idx)) assert (!erased_q[b]);
          if (32'(b) == 32'(idx) && (tap_er == ErNext || tap_er == ErCmd)) assert (!erased_q[b]);
        end
      end
      // The relocation commands: one in flight, in a phase that sends one.
      if (rc_wait) begin
        assert (ph_query || ph_alloc || ph_commit || ph_halt ||
                (ph_copy && (tap_rt == RtMark || tap_rt == RtAlloc)) ||
                (ph_erase && tap_er == ErRelease));
      end
      if (rc_wait) assert (tap_rt == RtIdle || tap_rt == RtMark || tap_rt == RtAlloc);
      if (rc_wait && tap_rt == RtIdle) assert (!prog_work);
      if (ph_halt) assert (err);
      if ((ph_query || ph_commit) && rc_wait) assert (32'(idx) < Blocks);
      if (ph_alloc && rc_wait) assert (idx < live_blocks_i);
      // The commit phase's Alloc of an empty block: its answer is not a Commit's.
      if (tap_al || tap_cm_al) assert (ph_commit || ph_halt);
      if (ph_commit && tap_cm_al) assert (32'(idx) < Blocks && idx >= live_blocks_i &&
                                         !(rc_wait && tap_al));
      if (ph_commit && rc_wait && tap_al) assert (idx >= live_blocks_i && !tap_cm_al);
      if (tap_cm_ready) assert (ph_commit || ph_halt || ph_settle);
      // The planes.
      if (ph_erase || ph_vacate || ph_settle || ph_commit) assert (s != p);
    end
  end
  // Non-vacuity (scripts/formal.py's broken copies): claims that no ProgramPage, or no
  // EraseBlock, is ever taken; a bounded run from reset must refute each, so the proof's
  // environment does reach a program into P and an erase of S.
`ifdef BREAK_NO_PROGRAM
  always @(posedge clk_i) if (rst_ni && !f_init_q) assert (!(is_prog && mreq_ready_i));
`endif
`ifdef BREAK_NO_ERASE
  always @(posedge clk_i) if (rst_ni && !f_init_q) assert (!(is_erase && mreq_ready_i));
`endif
  // P moves only when the erase phase ends, and then to S.
  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q && rst_q && p != p_q) begin
      assert (ph_q == flint_pkg::RefreshErase && ph == flint_pkg::RefreshChoose && p == s_q);
    end
  end
endmodule
`default_nettype wire
