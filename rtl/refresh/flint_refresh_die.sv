// Phantom-plane refresh controller of one die (paper section 4.2; docs/refresh.md, "The refresh
// controller as built"). Mode 0 (FLINT) rotates the phantom role; Mode 2 (none) only watches
// the read counters. Per rotation step:
//   choose   the source plane S: round-robin over the planes that are not the phantom P, each
//            once a pass, a plane with a counter past its trip point first;
//   query    S's blocks (relocation table Query): S holds every block of one logical plane lS
//            (the rotation keeps it so); src[b] = S's block holding logical block b;
//   alloc    a copy target on P for every logical block (Alloc), tgt[b]; next[b] = 0 for a live
//            block (b < live_blocks_i), Pages for a block that holds nothing;
//   copy     pages reach P in page order per block (3D NAND programs a block's pages in order,
//            so the pages of a block already copied are always a prefix: next[b], the next page
//            to copy, replaces the paper's per-page migration bitmap). Two sources:
//            fork   a foreground read: when a burst becomes ACTIVE and its page is next[b] of
//                   its block, the corrected lines of S's page are copied as the accelerator
//                   reads them; the page counts when every line has been read (any order,
//                   duplicates ignored), and is cancelled if ACTIVE leaves first;
//            scrub  when the controller has had nothing to do for IdleWait cycles, park it,
//                   read next[b] of some block from S (a ReadPage: the lines come back SEC-DED
//                   decoded) and copy it; a line that cannot be corrected is copied poisoned,
//                   so the copy still reads back UNCORRECTABLE. With StealPace > 0 it also
//                   parks a busy controller for one page when the program queue is empty and
//                   the copy is behind one page every StealPace cycles (a saturated read stream
//                   leaves no idle time, and forks alone cannot copy a plane: docs/refresh.md,
//                   "Program-queue demand, measured");
//            pages wait in the program queue (flint_progq) and are programmed into P at
//            tgt[b] (ECC-encoded again) one after the other;
//   commit   once every page is programmed: Commit each block (S's block becomes Vacated, P
//            now serves logical plane lS) and tell the stripe table;
//   vacate   wait until no burst in the page or cache buffers reads S (park if idle);
//   erase    S's blocks, Release them, reset their read counts; S is the new phantom.
// NAND access: every operation is a transaction on the die's maintenance sequencer
// (flint_maint_seq, through flint_top's flint_maint_arb; docs/nand_seq.md): the scrubber's
// ReadPage, the program engine's ProgramPage (a queued page's lines, poisoned ones flagged; the
// sequencer encodes them), the erase engine's EraseBlock. The three share this die's client
// port: a request goes scrubber first, then erase, then program, and is held until taken; each
// engine has at most one transaction in flight and its tag names it (Tag*), so every answer goes
// back to its engine. The program engine asks for the next page only once the last is answered,
// so no request waits in the sequencer for the phantom's busy plane while a scrub read could go.
// Programs and erases go only to P (copy) and to S after it left every stripe (erase): a
// foreground read never waits on either. The one foreground cost is the scrubber's park: taken
// when no request is waiting, or, to keep the copy's pace, one page at a time (stat_park_wait
// of the BBC counts what waits).
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_die #(
  parameter int unsigned Mode     = 0,   // 0 FLINT phantom rotation, 2 none
  parameter int unsigned IdleWait = flint_cfg_pkg::BurstPeriodCycles,  // idle cycles to scrub
  parameter int unsigned StealPace = 0,  // 0: scrub only when idle; N: keep a page a N cycles
  parameter int unsigned Settle   = 4,   // cycles after the last commit before S is checked
  // do not override
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages     = flint_cfg_pkg::Pages,
  localparam int unsigned Lines     = flint_cfg_pkg::ClPerPage,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned RcW       = flint_pkg::RelocCmdWidth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     enable_i,       // the model is loaded and served
  input  logic [BlockBits:0]       live_blocks_i,
  // the burst-buffer controller (ACTIVE is stack-wide; the fork is this die's)
  input  logic                     act_new_i,      // a new ACTIVE from the next cycle
  input  logic                     act_change_i,   // ACTIVE released this cycle
  input  logic [BlockBits-1:0]     act_lblock_i,
  input  logic [PageBits-1:0]      act_page_i,
  input  logic                     fork_valid_i,
  input  logic [LPlBits-1:0]       fork_lplane_i,
  input  logic [LineBits-1:0]      fork_line_i,
  input  logic [StW-1:0]           fork_status_i,
  input  logic [DataBits-1:0]      fork_data_i,
  input  logic                     bbc_empty_i,
  input  logic                     parked_i,
  input  logic [PhysPl-1:0]        res_planes_i,   // planes holding ACTIVE or NEXT
  output logic                     park_o,
  // this die's maintenance sequencer (through its flint_maint_arb): requests, program lines,
  // read lines, answers
  output logic                     mreq_valid_o,
  input  logic                     mreq_ready_i,
  output flint_pkg::maint_req_t    mreq_o,
  output logic                     mwr_valid_o,
  input  logic                     mwr_ready_i,
  output logic [DataBits-1:0]      mwr_data_o,
  output logic                     mwr_poison_o,
  input  logic                     mrd_valid_i,
  output logic                     mrd_ready_o,
  input  logic [DataBits-1:0]      mrd_data_i,
  input  flint_pkg::status_e       mrd_status_i,
  input  logic [LineBits-1:0]      mrd_line_i,
  input  logic                     mrd_last_i,
  input  logic                     mrsp_valid_i,
  output logic                     mrsp_ready_o,
  input  flint_pkg::maint_rsp_t    mrsp_i,
  // relocation table commands (through flint_refresh's arbiter); plane/block as the table takes
  output logic                     rc_valid_o,
  input  logic                     rc_ready_i,
  output logic [RcW-1:0]           rc_op_o,        // a flint_pkg::reloc_cmd_e value
  output logic [PPlBits-1:0]       rc_plane_o,
  output logic [BlockBits-1:0]     rc_block_o,
  input  logic                     rc_rsp_valid_i,
  output logic                     rc_rsp_ready_o,
  input  flint_pkg::ftl_status_e   rc_rsp_status_i,
  input  flint_pkg::blk_state_e    rc_rsp_state_i,
  input  logic [PPlBits-1:0]       rc_rsp_plane_i,
  input  logic [BlockBits-1:0]     rc_rsp_block_i,
  input  logic [LPlBits-1:0]       rc_rsp_lplane_i,
  input  logic [BlockBits-1:0]     rc_rsp_lblock_i,
  // read-counter reset of an erased block (through flint_refresh's arbiter)
  output logic                     cc_valid_o,
  input  logic                     cc_ready_i,
  output logic [PPlBits-1:0]       cc_plane_o,
  output logic [BlockBits-1:0]     cc_block_o,
  input  logic                     cc_rsp_valid_i,
  // a committed relocation, for the stripe table
  output logic                     upd_valid_o,
  output logic [LPlBits-1:0]       upd_lplane_o,
  output logic [BlockBits-1:0]     upd_lblock_o,
  output logic [PPlBits-1:0]       upd_pplane_o,
  output logic [BlockBits-1:0]     upd_pblock_o,
  // the scrubber's own senses, for the read counters (a pulse: the feed holds it)
  output logic                     sn_valid_o,
  output logic [PPlBits-1:0]       sn_plane_o,
  output logic [BlockBits-1:0]     sn_block_o,
  // read-counter trip events of this die
  input  logic                     evt_valid_i,
  output logic                     evt_ready_o,
  input  logic [PPlBits-1:0]       evt_plane_i,
  input  logic [BlockBits-1:0]     evt_block_i,
  input  logic                     evt_limit_i,
  // status
  output logic [PPlBits-1:0]       phantom_o,
  output logic [PPlBits-1:0]       source_o,
  output logic [3:0]               phase_o,        // a state_e value
  output logic [31:0]              rotations_o,
  output logic [31:0]              forked_o,       // pages copied from foreground reads
  output logic [31:0]              scrubbed_o,     // pages copied by the scrubber
  output logic [31:0]              programmed_o,   // pages programmed into the phantom
  output logic [31:0]              erased_o,       // blocks erased
  output logic [31:0]              dropped_o,      // fork pages refused for a full queue
  output logic [31:0]              poisoned_o,     // copied lines that could not be corrected
  output logic [31:0]              due_o,          // due events seen
  output logic [31:0]              limit_o,        // limit events seen
  output logic                     alarm_o,        // a block reached the disturb limit
  output logic                     err_o,
  output logic [2:0]               err_code_o      // a flint_pkg::refresh_err_e value
);
  localparam int unsigned CountBits = $clog2(Blocks * Pages + 1);
  localparam int unsigned NextBits  = PageBits + 1;
  // The engines' tags (one transaction in flight each): the scrubber's read, a program, an erase.
  localparam logic [flint_pkg::MaintTagBits-1:0] TagScrub = flint_pkg::MaintTagBits'(0);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagProg  = flint_pkg::MaintTagBits'(1);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagErase = flint_pkg::MaintTagBits'(2);
  localparam logic [Lines-1:0] AllLines = {Lines{1'b1}};

  typedef enum logic [3:0] {
    StOff    = 4'd0,
    StChoose = 4'd1,
    StQuery  = 4'd2,
    StAlloc  = 4'd3,
    StCopy   = 4'd4,
    StCommit = 4'd5,
    StSettle = 4'd6,
    StVacate = 4'd7,
    StErase  = 4'd8,
    StHalt   = 4'd9
  } state_e;
  state_e st_q, st_d;

  // Rotation state.
  logic [PPlBits-1:0] p_q, s_q, rr_q;   // phantom, source, last source
  logic [LPlBits-1:0] ls_q;             // the logical plane S holds
  logic ls_known_q;
  logic [BlockBits:0] idx_q;            // block being queried, allocated, committed, erased
  logic [Blocks-1:0] xlive_q;           // S's physical block holds a live logical block
  logic [PhysPl-1:0] due_q, visited_q;
  logic [CountBits-1:0] total_q, done_q;  // pages to copy this step, pages copied
  logic [31:0] rot_q, forked_q, scrubbed_q, programmed_q, erased_q, dropped_q, poisoned_q;
  logic [31:0] due_cnt_q, limit_cnt_q;
  logic alarm_q, err_q;
  flint_pkg::refresh_err_e code_q;
  logic [$clog2(Settle + 1)-1:0] settle_q;
  // A relocation or counter command has been accepted and its answer is awaited.
  logic rc_wait_q, cc_wait_q;
  logic cm_ready_q;                     // StCommit: tgt[idx] is on the SRAM's output
  logic [BlockBits-1:0] tgt_q_commit;   // the block of the Commit in flight

  // --- tables: src[b], tgt[b] (blocks), next[b] (next page to copy) -------------------------
  logic src_we, tgt_we, nx_we;
  logic [BlockBits-1:0] src_wa, tgt_wa, nx_wa, src_ra, tgt_ra, nx_ra;
  logic [BlockBits-1:0] src_wd, tgt_wd, src_rd, tgt_rd;
  logic [NextBits-1:0] nx_wd, nx_rd;
  flint_sram #(.Width(BlockBits), .Depth(Blocks)) u_src (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(src_ra), .rd_data_o(src_rd),
    .wr_en_i(src_we), .wr_addr_i(src_wa), .wr_data_i(src_wd));
  flint_sram #(.Width(BlockBits), .Depth(Blocks)) u_tgt (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(tgt_ra), .rd_data_o(tgt_rd),
    .wr_en_i(tgt_we), .wr_addr_i(tgt_wa), .wr_data_i(tgt_wd));
  flint_sram #(.Width(NextBits), .Depth(Blocks)) u_next (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(nx_ra), .rd_data_o(nx_rd),
    .wr_en_i(nx_we), .wr_addr_i(nx_wa), .wr_data_i(nx_wd));

  // --- the program queue ------------------------------------------------------------------------
  logic fq_valid, fq_open, fq_cancel, fq_room, fq_drop;
  logic [LineBits-1:0] fq_line;
  logic sq_valid, sq_ready, sq_open, sq_cancel;
  logic [LineBits-1:0] sq_line;
  logic [DataBits:0] sq_data;
  logic pq_valid, pq_ready, pq_scrub, pq_last;
  logic [BlockBits-1:0] pq_block;
  logic [PageBits-1:0] pq_page;
  logic [LineBits-1:0] pq_line;
  logic [DataBits:0] pq_data;  // {poison, data}
  logic [$clog2(flint_cfg_pkg::ProgqPages + 1)-1:0] pq_occ, unused_pq_hw;
  logic [31:0] unused_enq_fork, unused_enq_scrub, unused_pq_dropped, unused_pq_programmed;
  logic [BlockBits-1:0] fk_b_q, sc_b_q;
  logic [PageBits-1:0] fk_p_q, sc_p_q;
  flint_progq #(
    .Slots   (flint_cfg_pkg::ProgqPages),
    .Lines   (Lines),
    .BeatBits(DataBits + 1),
    .Blocks  (Blocks),
    .Pages   (Pages)
  ) u_progq (
    .clk_i, .rst_ni,
    .fork_valid_i (fq_valid),
    .fork_open_i  (fq_open),
    .fork_block_i (fk_b_q),
    .fork_page_i  (fk_p_q),
    .fork_line_i  (fq_line),
    .fork_data_i  ({1'b0, fork_data_i}),
    .fork_cancel_i(fq_cancel),
    .fork_room_o  (fq_room),
    .fork_drop_o  (fq_drop),
    .scrub_valid_i (sq_valid),
    .scrub_ready_o (sq_ready),
    .scrub_open_i  (sq_open),
    .scrub_block_i (sc_b_q),
    .scrub_page_i  (sc_p_q),
    .scrub_line_i  (sq_line),
    .scrub_data_i  (sq_data),
    .scrub_cancel_i(sq_cancel),
    .prog_valid_o (pq_valid),
    .prog_ready_i (pq_ready),
    .prog_block_o (pq_block),
    .prog_page_o  (pq_page),
    .prog_scrub_o (pq_scrub),
    .prog_line_o  (pq_line),
    .prog_last_o  (pq_last),
    .prog_data_o  (pq_data),
    .occupancy_o  (pq_occ),
    .high_water_o (unused_pq_hw),
    .enq_fork_o   (unused_enq_fork),
    .enq_scrub_o  (unused_enq_scrub),
    .dropped_o    (unused_pq_dropped),
    .programmed_o (unused_pq_programmed)
  );
  assign sq_cancel = 1'b0;  // a scrubbed page is always completed (poisoned if need be)

  // --- fork: the source plane's page of ACTIVE -------------------------------------------------
  typedef enum logic [2:0] {
    FkNone   = 3'd0,  // no ACTIVE page of interest
    FkRead   = 3'd1,  // a new ACTIVE: read next[] of its block
    FkDecide = 3'd2,  // next[] is at hand
    FkTake   = 3'd3,  // the page is next of its block: copy its lines
    FkSkip   = 3'd4   // not this page (copied, out of order, not live, or dropped)
  } fork_e;
  fork_e fk_q, fk_d;
  logic [Lines-1:0] fk_mask_q, fk_mask_d;
  logic fk_open_q, fk_open_d;   // the page holds a slot of the program queue
  logic fk_line, fk_accept, fk_done;
  logic copying;
  assign copying = st_q == StCopy;
  // A line of S's page that can be copied: not uncorrectable, not seen yet.
  assign fk_line = fork_valid_i && fork_lplane_i == ls_q &&
                   fork_status_i != StW'(flint_pkg::StatusUncorrectable) &&
                   !fk_mask_q[fork_line_i];
  logic sc_busy;  // the scrubber holds a page (its block must not be forked meanwhile)
  assign fk_accept = copying && 32'(act_lblock_i) < 32'(live_blocks_i) &&
                     nx_rd == NextBits'(act_page_i) && !(sc_busy && sc_b_q == act_lblock_i);
  always_comb begin
    fk_d = fk_q;
    fk_mask_d = fk_mask_q;
    fk_open_d = fk_open_q;
    fq_valid = 1'b0;
    fq_open = 1'b0;
    fq_line = fork_line_i;
    fq_cancel = 1'b0;
    fk_done = 1'b0;
    unique case (fk_q)
      FkRead:   fk_d = FkDecide;
      FkDecide: fk_d = fk_accept ? FkTake : FkSkip;
      default: ;
    endcase
    if ((fk_q == FkTake || (fk_q == FkDecide && fk_accept)) && fk_line) begin
      if (!fk_open_q) begin
        // The first line opens the page; a full queue drops it for this residency.
        fq_valid = 1'b1;
        fq_open = 1'b1;
        if (fq_room) begin
          fk_open_d = 1'b1;
          fk_mask_d = AllLines & (Lines'(1) << fork_line_i);
        end else begin
          fk_d = FkSkip;
        end
      end else begin
        fq_valid = 1'b1;
        fk_mask_d = fk_mask_q | (Lines'(1) << fork_line_i);
      end
      if (fk_open_d && fk_mask_d == AllLines) begin
        fk_done = 1'b1;
        fk_open_d = 1'b0;
        fk_mask_d = '0;
        fk_d = FkSkip;
      end
    end
    // ACTIVE leaves: an unfinished page gives its slot back. A new ACTIVE: look its block up.
    if (act_change_i && fk_open_q && !fk_done) begin
      fq_cancel = 1'b1;
      fk_open_d = 1'b0;
      fk_mask_d = '0;
    end
    if (act_change_i) fk_d = FkNone;
    if (act_new_i) begin
      fk_d = copying ? FkRead : FkNone;
      fk_mask_d = '0;
    end
  end

  // --- scrubber -----------------------------------------------------------------------------
  logic sc_go, er_go, pg_go;            // the engines' requests taken by the sequencer
  typedef enum logic [3:0] {
    ScIdle  = 4'd0,
    ScFind  = 4'd1,   // reading next[] of the cursor's block
    ScLook  = 4'd2,   // next[] at hand
    ScPark  = 4'd3,   // waiting for the controller to park
    ScSrc   = 4'd4,   // src[] of the block at hand next cycle
    ScReq   = 4'd5,   // ReadPage of S's page
    ScLines = 4'd6,   // its decoded lines into the program queue, then its answer
    ScDone  = 4'd7
  } scrub_e;
  scrub_e sc_q, sc_d;
  logic [BlockBits-1:0] cur_q;          // the scrubber's block cursor
  logic [BlockBits-1:0] sc_x_q;         // S's block of the page
  logic [$clog2(IdleWait + 1)-1:0] idle_q;
  assign sc_busy = sc_q != ScIdle && sc_q != ScFind && sc_q != ScLook;
  logic idle_enough, all_queued, pq_room, behind, steal_due;
  logic [CountBits-1:0] owed_q;         // pages the pace asks for by now
  localparam int unsigned PaceW = $clog2(StealPace + 2);
  localparam logic [PaceW-1:0] PaceTop = PaceW'((StealPace == 0) ? 0 : StealPace - 1);
  logic [PaceW-1:0] pace_q;
  logic sc_steal_q;                     // the scrubber's page is a steal: the controller is busy
  assign pq_room = 32'(pq_occ) + 1 < flint_cfg_pkg::ProgqPages;
  assign idle_enough = 32'(idle_q) >= IdleWait;
  assign all_queued = done_q == total_q;
  assign behind = StealPace != 0 && owed_q > done_q;
  // A steal only when the phantom has nothing queued: one page at a time, just in time.
  assign steal_due = behind && pq_occ == '0;

  // The sequencer's answers, to the engine their tag names (each takes its answer at once).
  logic rsp_scrub, rsp_prog, rsp_erase, rsp_bad;
  assign mrsp_ready_o = 1'b1;
  assign rsp_scrub = mrsp_valid_i && mrsp_i.tag == TagScrub;
  assign rsp_prog = mrsp_valid_i && mrsp_i.tag == TagProg;
  assign rsp_erase = mrsp_valid_i && mrsp_i.tag == TagErase;
  // A status no transaction of this die should get (a program's or erase's failure is its own).
  assign rsp_bad = mrsp_valid_i && mrsp_i.status == flint_pkg::MaintBadAddress;

  // The read's lines straight into the program queue; an uncorrectable one is copied poisoned.
  logic sc_line_bad, sc_line_go, sc_page_in;
  assign sc_line_bad = mrd_status_i == flint_pkg::StatusUncorrectable;
  assign sq_valid = sc_q == ScLines && mrd_valid_i;
  assign mrd_ready_o = sc_q == ScLines && sq_ready;
  assign sq_open = mrd_line_i == '0;
  assign sq_line = mrd_line_i;
  assign sq_data = {sc_line_bad, mrd_data_i};
  assign sc_line_go = sq_valid && sq_ready;
  assign sc_page_in = sc_line_go && 32'(mrd_line_i) == Lines - 1;
  logic sc_req;
  assign sc_req = sc_q == ScReq;
  always_comb begin
    sc_d = sc_q;
    unique case (sc_q)
      // Start only with room for a page in the queue: a parked controller must not wait on it.
      ScIdle: if (copying && !all_queued && (idle_enough || steal_due) && fk_q != FkRead &&
                  pq_room) begin
        sc_d = ScFind;
      end
      ScFind: sc_d = ScLook;
      ScLook: begin
        if ((!bbc_empty_i && !sc_steal_q) || !copying) sc_d = ScIdle;
        else if (fk_q == FkDecide) sc_d = ScFind;  // the port read the fork's block instead
        else if (32'(nx_rd) < Pages && !(fk_open_q && fk_b_q == cur_q)) sc_d = ScPark;
        else sc_d = ScFind;
      end
      ScPark: if (parked_i) sc_d = ScSrc;
      // Parked, no fork line comes: the queue's room can only grow now. Without room for the
      // page the read is not asked for (its lines would wait in the sequencer, and the programs
      // that make room wait behind the read there): park released, tried again later.
      ScSrc: sc_d = pq_room ? ScReq : ScIdle;
      ScReq: if (sc_go) sc_d = ScLines;
      ScLines: if (rsp_scrub) sc_d = ScDone;
      ScDone: sc_d = (bbc_empty_i && copying && done_q + 1'b1 != total_q) ? ScFind : ScIdle;
      default: sc_d = ScIdle;
    endcase
  end

  // --- program engine: queued pages into the phantom, one after the other ---------------------
  typedef enum logic [2:0] {
    PgIdle  = 3'd0,
    PgTgt   = 3'd1,  // tgt[] of the head page at hand next cycle
    PgWait  = 3'd2,  // the last program answered
    PgReq   = 3'd3,  // ProgramPage of the head page
    PgBeats = 3'd4   // its lines
  } prog_e;
  prog_e pg_q, pg_d;
  logic [BlockBits-1:0] pg_y_q;
  logic [PageBits-1:0] pg_page_q;
  logic pg_pend_q;                      // a program asked for and not answered yet
  logic pg_req, pg_beat_go;
  assign pg_req = pg_q == PgReq;
  assign mwr_valid_o = pg_q == PgBeats && pq_valid;
  assign mwr_data_o = pq_data[DataBits-1:0];
  assign mwr_poison_o = pq_data[DataBits];
  assign pq_ready = pg_q == PgBeats && mwr_ready_i;
  assign pg_beat_go = mwr_valid_o && mwr_ready_i;
  always_comb begin
    pg_d = pg_q;
    unique case (pg_q)
      PgIdle: if (pq_valid) pg_d = PgTgt;
      PgTgt: pg_d = PgWait;
      PgWait: if (!pg_pend_q) pg_d = PgReq;
      PgReq: if (pg_go) pg_d = PgBeats;
      PgBeats: if (pg_beat_go && pq_last) pg_d = PgIdle;
      default: pg_d = PgIdle;
    endcase
  end

  // --- erase engine -----------------------------------------------------------------------------
  typedef enum logic [2:0] {
    ErNext    = 3'd0,  // next block of S
    ErCmd     = 3'd1,  // EraseBlock
    ErWait    = 3'd2,  // its answer
    ErRelease = 3'd3,  // Release (relocation table)
    ErCount   = 3'd4   // read-count reset
  } erase_e;
  erase_e er_q, er_d;
  logic er_req, er_failed;
  logic [BlockBits-1:0] er_x;
  assign er_x = idx_q[BlockBits-1:0];
  assign er_req = st_q == StErase && er_q == ErCmd;
  assign er_failed = er_q == ErWait && rsp_erase && mrsp_i.status == flint_pkg::MaintEraseFail;

  // --- requests to the sequencer: scrubber, then erase, then program; held once offered -------
  logic [1:0] rq_sel, rq_sel_q;         // 0 scrub, 1 erase, 2 program
  logic rq_hold_q, req_go;
  always_comb begin
    rq_sel = sc_req ? 2'd0 : (er_req ? 2'd1 : 2'd2);
    if (rq_hold_q) rq_sel = rq_sel_q;
  end
  assign mreq_valid_o = rq_hold_q || sc_req || er_req || pg_req;
  assign req_go = mreq_valid_o && mreq_ready_i;
  assign sc_go = req_go && rq_sel == 2'd0;
  assign er_go = req_go && rq_sel == 2'd1;
  assign pg_go = req_go && rq_sel == 2'd2;
  always_comb begin
    mreq_o = '0;
    unique case (rq_sel)
      2'd0: begin
        mreq_o.tag = TagScrub;
        mreq_o.op = flint_pkg::MaintReadPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(s_q);
        mreq_o.block = flint_pkg::MaintBlockBits'(sc_x_q);
        mreq_o.page = flint_pkg::MaintPageBits'(sc_p_q);
      end
      2'd1: begin
        mreq_o.tag = TagErase;
        mreq_o.op = flint_pkg::MaintEraseBlock;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(s_q);
        mreq_o.block = flint_pkg::MaintBlockBits'(er_x);
      end
      default: begin
        mreq_o.tag = TagProg;
        mreq_o.op = flint_pkg::MaintProgramPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(p_q);
        mreq_o.block = flint_pkg::MaintBlockBits'(pg_y_q);
        mreq_o.page = flint_pkg::MaintPageBits'(pg_page_q);
      end
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_hold_q <= 1'b0;
      rq_sel_q <= '0;
    end else begin
      rq_hold_q <= mreq_valid_o && !mreq_ready_i;
      rq_sel_q <= rq_sel;
    end
  end
  logic unused_rd;
  assign unused_rd = ^{mrd_last_i, mrsp_i.op, mrsp_i.plane, mrsp_i.block, mrsp_i.page};

  // --- relocation-table commands of the rotation ----------------------------------------------
  always_comb begin
    rc_valid_o = 1'b0;
    rc_op_o = RcW'(flint_pkg::RelocCmdQuery);
    rc_plane_o = s_q;
    rc_block_o = idx_q[BlockBits-1:0];
    unique case (st_q)
      StQuery: rc_valid_o = !rc_wait_q && 32'(idx_q) < Blocks;
      StAlloc: begin
        rc_valid_o = !rc_wait_q && 32'(idx_q) < Blocks;
        rc_op_o = RcW'(flint_pkg::RelocCmdAlloc);
        rc_plane_o = PPlBits'(ls_q);
      end
      StCommit: begin
        // tgt[idx] was read in the cycle before (rc_wait_q drops a cycle before the next send)
        rc_valid_o = !rc_wait_q && 32'(idx_q) < Blocks && cm_ready_q;
        rc_op_o = RcW'(flint_pkg::RelocCmdCommit);
        rc_plane_o = p_q;
        rc_block_o = tgt_rd;
      end
      StErase: begin
        rc_valid_o = er_q == ErRelease && !rc_wait_q;
        rc_op_o = RcW'(flint_pkg::RelocCmdRelease);
      end
      default: ;
    endcase
  end
  assign rc_rsp_ready_o = 1'b1;
  logic rc_ok;
  assign rc_ok = rc_rsp_status_i == flint_pkg::FtlOk;

  // --- the rotation -----------------------------------------------------------------------------
  // The next source: among planes not yet a source this pass (all if none is left), the first
  // after the last source that is due, else the first after it. Looked for one plane a cycle,
  // a pass for due planes and then one for any (up to 2 x PhysPl cycles, once a rotation step):
  // the whole rotate-and-prioritize in one cycle was the die's longest logic path at paper.
  logic [PhysPl-1:0] cand;
  always_comb begin
    cand = ~visited_q;
    cand[p_q] = 1'b0;
    if (cand == '0) begin
      cand = '1;
      cand[p_q] = 1'b0;
    end
  end
  logic [PPlBits-1:0] ch_p_q, ch_n_q;  // the plane looked at; planes looked at this pass
  logic ch_pass_q;                     // 0: due planes only; 1: any candidate
  logic ch_hit;
  logic [PPlBits-1:0] pick, rr_next, ch_next;
  assign rr_next = (32'(rr_q) + 1 >= PhysPl) ? '0 : rr_q + 1'b1;
  assign ch_next = (32'(ch_p_q) + 1 >= PhysPl) ? '0 : ch_p_q + 1'b1;
  assign ch_hit = st_q == StChoose && cand[ch_p_q] && (ch_pass_q || due_q[ch_p_q]);
  assign pick = ch_p_q;

  logic copy_done;
  assign copy_done = all_queued && pq_occ == '0 && pg_q == PgIdle && !pq_valid &&
                     !pg_pend_q && fk_q != FkTake && !fk_open_q && !sc_busy;
  always_comb begin
    st_d = st_q;
    unique case (st_q)
      StOff:    if (enable_i && Mode == 0) st_d = StChoose;
      StChoose: if (ch_hit) st_d = StQuery;
      StQuery:  if (32'(idx_q) == Blocks && !rc_wait_q) st_d = StAlloc;
      StAlloc:  if (32'(idx_q) == Blocks && !rc_wait_q) st_d = StCopy;
      StCopy:   if (copy_done) st_d = StCommit;
      StCommit: if (32'(idx_q) == Blocks && !rc_wait_q) st_d = StSettle;
      StSettle: if (32'(settle_q) == Settle) st_d = StVacate;
      StVacate: if (!res_planes_i[s_q]) st_d = StErase;
      StErase:  if (32'(idx_q) == Blocks) st_d = StChoose;
      default:  ;
    endcase
    if (err_q) st_d = StHalt;
    if (!enable_i) st_d = StOff;
  end

  assign cc_valid_o = st_q == StErase && er_q == ErCount && !cc_wait_q;
  always_comb begin
    er_d = er_q;
    if (st_q == StErase) begin
      unique case (er_q)
        ErNext: if (32'(idx_q) < Blocks) er_d = xlive_q[er_x] ? ErCmd : ErRelease;
        ErCmd: if (er_go) er_d = ErWait;
        ErWait: if (rsp_erase) er_d = ErRelease;
        ErRelease: if (rc_rsp_valid_i) er_d = ErCount;
        ErCount: if (cc_rsp_valid_i) er_d = ErNext;
        default: er_d = ErNext;
      endcase
    end
  end
  assign cc_plane_o = s_q;
  assign cc_block_o = er_x;

  // Table ports.
  always_comb begin
    src_we = 1'b0;
    src_wa = rc_rsp_lblock_i;
    src_wd = rc_rsp_block_i;
    tgt_we = 1'b0;
    tgt_wa = idx_q[BlockBits-1:0];
    tgt_wd = rc_rsp_block_i;
    nx_we = 1'b0;
    nx_wa = idx_q[BlockBits-1:0];
    nx_wd = (32'(idx_q) < 32'(live_blocks_i)) ? '0 : NextBits'(Pages);
    if (st_q == StQuery && rc_rsp_valid_i && rc_rsp_state_i == flint_pkg::BlkMapped) begin
      src_we = 1'b1;
    end
    if (st_q == StAlloc && rc_rsp_valid_i && rc_ok) begin
      tgt_we = 1'b1;
      nx_we = 1'b1;
    end
    // A completed page: the fork's or the scrubber's (never both: the scrubber works parked).
    if (fk_done) begin
      nx_we = 1'b1;
      nx_wa = fk_b_q;
      nx_wd = NextBits'(fk_p_q) + 1'b1;
    end else if (sc_page_in) begin
      nx_we = 1'b1;
      nx_wa = sc_b_q;
      nx_wd = NextBits'(sc_p_q) + 1'b1;
    end
    // Reads: the fork's lookup of a new ACTIVE first, else the scrubber's cursor.
    nx_ra = (fk_q == FkRead) ? act_lblock_i : cur_q;
    src_ra = sc_b_q;
    tgt_ra = (st_q == StCommit) ? idx_q[BlockBits-1:0] : pq_block;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StOff;
      p_q <= PPlBits'(Planes);  // the extra plane starts as the phantom of every block
      s_q <= '0;
      rr_q <= PPlBits'(Planes);
      ls_q <= '0;
      ls_known_q <= 1'b0;
      idx_q <= '0;
      xlive_q <= '0;
      due_q <= '0;
      visited_q <= '0;
      total_q <= '0;
      done_q <= '0;
      rot_q <= '0;
      forked_q <= '0;
      scrubbed_q <= '0;
      programmed_q <= '0;
      erased_q <= '0;
      dropped_q <= '0;
      poisoned_q <= '0;
      due_cnt_q <= '0;
      limit_cnt_q <= '0;
      alarm_q <= 1'b0;
      err_q <= 1'b0;
      code_q <= flint_pkg::RefreshErrNone;
      settle_q <= '0;
      rc_wait_q <= 1'b0;
      cc_wait_q <= 1'b0;
      cm_ready_q <= 1'b0;
      fk_q <= FkNone;
      fk_mask_q <= '0;
      fk_open_q <= 1'b0;
      fk_b_q <= '0;
      fk_p_q <= '0;
      sc_q <= ScIdle;
      cur_q <= '0;
      sc_b_q <= '0;
      sc_p_q <= '0;
      sc_x_q <= '0;
      idle_q <= '0;
      owed_q <= '0;
      pace_q <= '0;
      sc_steal_q <= 1'b0;
      ch_p_q <= '0;
      ch_n_q <= '0;
      ch_pass_q <= 1'b0;
      pg_q <= PgIdle;
      pg_y_q <= '0;
      pg_page_q <= '0;
      pg_pend_q <= 1'b0;
      er_q <= ErNext;
    end else begin
      st_q <= st_d;
      fk_q <= fk_d;
      fk_mask_q <= fk_mask_d;
      fk_open_q <= fk_open_d;
      sc_q <= sc_d;
      pg_q <= pg_d;
      er_q <= er_d;
      // The fork's page: ACTIVE's block and page, taken when it is looked up.
      if (fk_q == FkRead) begin
        fk_b_q <= act_lblock_i;
        fk_p_q <= act_page_i;
      end
      // Idle time: cycles the controller has had no request.
      idle_q <= !bbc_empty_i ? '0 : (idle_enough ? idle_q : idle_q + 1'b1);
      // The pace: a page owed every StealPace cycles of the copy.
      if (StealPace != 0 && copying) begin
        if (pace_q == PaceTop) begin
          pace_q <= '0;
          if (owed_q != total_q) owed_q <= owed_q + 1'b1;
        end else begin
          pace_q <= pace_q + 1'b1;
        end
      end
      // The source scan: from the plane after the last source, due planes first.
      if (st_d == StChoose && st_q != StChoose) begin
        ch_p_q <= rr_next;
        ch_n_q <= '0;
        ch_pass_q <= 1'b0;
      end else if (st_q == StChoose && !ch_hit) begin
        if (32'(ch_n_q) + 1 >= PhysPl) begin
          ch_p_q <= rr_next;
          ch_n_q <= '0;
          ch_pass_q <= 1'b1;
        end else begin
          ch_p_q <= ch_next;
          ch_n_q <= ch_n_q + 1'b1;
        end
      end
      if (sc_q == ScIdle && sc_d == ScFind) sc_steal_q <= !idle_enough;
      if (sc_q == ScDone && sc_d == ScFind) sc_steal_q <= 1'b0;  // idle again: an idle scrub
      // Relocation and counter commands: one in flight each.
      if (rc_valid_o && rc_ready_i) rc_wait_q <= 1'b1;
      if (rc_rsp_valid_i) rc_wait_q <= 1'b0;
      if (cc_valid_o && cc_ready_i) cc_wait_q <= 1'b1;
      if (cc_rsp_valid_i) cc_wait_q <= 1'b0;
      cm_ready_q <= st_q == StCommit && !rc_wait_q && !(rc_valid_o && rc_ready_i);
      // Trip events.
      if (evt_valid_i) begin
        if (evt_limit_i) begin
          alarm_q <= 1'b1;
          limit_cnt_q <= limit_cnt_q + 1'b1;
        end else begin
          due_q[evt_plane_i] <= 1'b1;
          due_cnt_q <= due_cnt_q + 1'b1;
        end
      end
      unique case (st_q)
        StChoose: if (ch_hit) begin
          s_q <= pick;
          rr_q <= pick;
          if ((~visited_q & ~(PhysPl'(1) << p_q)) == '0) visited_q <= PhysPl'(1) << pick;
          else visited_q <= visited_q | (PhysPl'(1) << pick);
          due_q[pick] <= 1'b0;
          idx_q <= '0;
          ls_known_q <= 1'b0;
          xlive_q <= '0;
        end
        StQuery: if (rc_rsp_valid_i) begin
          idx_q <= idx_q + 1'b1;
          if (rc_rsp_state_i == flint_pkg::BlkMapped) begin
            xlive_q[idx_q[BlockBits-1:0]] <= 32'(rc_rsp_lblock_i) < 32'(live_blocks_i);
            ls_q <= rc_rsp_lplane_i;
            ls_known_q <= 1'b1;
            if (ls_known_q && rc_rsp_lplane_i != ls_q) begin
              err_q <= 1'b1;
              code_q <= flint_pkg::RefreshErrSource;
            end
          end else begin
            err_q <= 1'b1;  // a source plane with a block it does not map: not a whole plane
            code_q <= flint_pkg::RefreshErrSource;
          end
        end
        StAlloc: if (rc_rsp_valid_i) begin
          idx_q <= idx_q + 1'b1;
          if (!rc_ok || rc_rsp_plane_i != p_q) begin
            err_q <= 1'b1;
            code_q <= flint_pkg::RefreshErrReloc;
          end
          total_q <= '0;
          done_q <= '0;
        end
        StCopy: ;
        StCommit: if (rc_rsp_valid_i) begin
          idx_q <= idx_q + 1'b1;
          if (!rc_ok || rc_rsp_plane_i != s_q) begin
            err_q <= 1'b1;
            code_q <= flint_pkg::RefreshErrReloc;
          end
        end
        StErase: begin
          if (er_q == ErCount && cc_rsp_valid_i) idx_q <= idx_q + 1'b1;
          if (er_q == ErRelease && rc_rsp_valid_i && !rc_ok) begin
            err_q <= 1'b1;
            code_q <= flint_pkg::RefreshErrReloc;
          end
          if (er_failed) begin
            err_q <= 1'b1;
            code_q <= flint_pkg::RefreshErrErase;
          end
        end
        default: ;
      endcase
      // Entering a step's phases.
      if (st_q == StQuery && st_d == StAlloc) idx_q <= '0;
      if (st_q == StAlloc && st_d == StCopy) begin
        idx_q <= '0;
        total_q <= CountBits'(32'(live_blocks_i) * Pages);
        done_q <= '0;
        owed_q <= '0;
        pace_q <= '0;
      end
      if (st_q == StCopy && st_d == StCommit) idx_q <= '0;
      if (st_q == StCommit && st_d == StSettle) settle_q <= '0;
      if (st_q == StSettle) settle_q <= settle_q + 1'b1;
      if (st_q == StVacate && st_d == StErase) begin
        idx_q <= '0;
        er_q <= ErNext;
      end
      if (st_q == StErase && st_d == StChoose) begin
        p_q <= s_q;
        rot_q <= rot_q + 1'b1;
      end
      // Pages copied.
      if (fk_done) begin
        done_q <= done_q + 1'b1;
        forked_q <= forked_q + 1'b1;
      end
      if (sc_page_in) begin
        done_q <= done_q + 1'b1;
        scrubbed_q <= scrubbed_q + 1'b1;
      end
      if (fq_drop) dropped_q <= dropped_q + 1'b1;
      // Scrubber registers.
      if (sc_q == ScLook) begin
        if (sc_d == ScPark) begin
          sc_b_q <= cur_q;
          sc_p_q <= nx_rd[PageBits-1:0];
        end
        cur_q <= (32'(cur_q) + 1 >= 32'(live_blocks_i)) ? '0 : cur_q + 1'b1;
      end
      if (sc_q == ScSrc) sc_x_q <= src_rd;
      if (sc_line_go && sc_line_bad) poisoned_q <= poisoned_q + 1'b1;
      // Program engine registers.
      if (pg_q == PgTgt) pg_page_q <= pq_page;
      if (pg_q == PgWait) pg_y_q <= tgt_rd;
      // A program counts when its last line is in (the sequencer programs it next); it is
      // pending until answered. A failed program or erase halts the die (RefreshErrProgram,
      // RefreshErrErase), as does an answer refusing an address (RefreshErrReloc, as a
      // relocation-table failure: the rotation's addresses came from the table).
      if (pg_go) pg_pend_q <= 1'b1;
      else if (rsp_prog) pg_pend_q <= 1'b0;
      if (pg_beat_go && pq_last) programmed_q <= programmed_q + 1'b1;
      if (rsp_prog && mrsp_i.status == flint_pkg::MaintProgramFail) begin
        err_q <= 1'b1;
        code_q <= flint_pkg::RefreshErrProgram;
      end
      if (er_go) erased_q <= erased_q + 1'b1;
      if (rsp_bad) begin
        err_q <= 1'b1;
        code_q <= flint_pkg::RefreshErrReloc;
      end
    end
  end

  // The scrubber's sense, for the read counters; parked while it reads.
  assign sn_valid_o = sc_go;
  assign sn_plane_o = s_q;
  assign sn_block_o = sc_x_q;
  assign park_o = (sc_q != ScIdle && sc_q != ScFind && sc_q != ScLook) ||
                  (st_q == StVacate && bbc_empty_i);
  assign evt_ready_o = 1'b1;
  // The block of a trip event does not matter here: the rotation copies whole planes.
  logic unused_refresh;
  assign unused_refresh = ^{evt_block_i, pq_scrub, pq_line};
  assign upd_valid_o = st_q == StCommit && rc_rsp_valid_i && rc_ok;
  assign upd_lplane_o = rc_rsp_lplane_i;
  assign upd_lblock_o = rc_rsp_lblock_i;
  assign upd_pplane_o = p_q;
  assign upd_pblock_o = tgt_q_commit;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) tgt_q_commit <= '0;
    else if (rc_valid_o && rc_ready_i) tgt_q_commit <= rc_block_o;
  end

  assign phantom_o = p_q;
  assign source_o = s_q;
  assign phase_o = st_q;
  assign rotations_o = rot_q;
  assign forked_o = forked_q;
  assign scrubbed_o = scrubbed_q;
  assign programmed_o = programmed_q;
  assign erased_o = erased_q;
  assign dropped_o = dropped_q;
  assign poisoned_o = poisoned_q;
  assign due_o = due_cnt_q;
  assign limit_o = limit_cnt_q;
  assign alarm_o = alarm_q;
  assign err_o = err_q;
  assign err_code_o = code_q;

  // --- invariants ------------------------------------------------------------------------------
  // Programs only into the phantom, erases only of the source once it left every stripe, and
  // never while a burst in the buffers names the plane: a foreground read never waits on them.
  `FLINT_ASSERT_IMPLY(ProgramOnlyPhantom, mreq_valid_o &&
                      mreq_o.op == flint_pkg::MaintProgramPage,
                      mreq_o.plane == flint_pkg::MaintPlaneBits'(p_q))
  `FLINT_ASSERT_IMPLY(PhantomNeverResident, st_q == StChoose || st_q == StQuery ||
                      st_q == StAlloc || st_q == StCopy, !res_planes_i[p_q])
  `FLINT_ASSERT_IMPLY(EraseOnlyVacated, mreq_valid_o && mreq_o.op == flint_pkg::MaintEraseBlock,
                      st_q == StErase && !res_planes_i[s_q])
  // The scrubber touches the source plane's buffers only while the controller is parked.
  `FLINT_ASSERT_IMPLY(ScrubOnlyParked, mreq_valid_o && mreq_o.op == flint_pkg::MaintReadPage,
                      parked_i && park_o)
  // Each engine one transaction at a time: an answer only for one asked for, read lines only
  // while the scrubber's read is out, program beats only after the program's request.
  `FLINT_ASSERT_IMPLY(ScrubAnswerAsked, rsp_scrub, sc_q == ScLines)
  `FLINT_ASSERT_IMPLY(ProgAnswerAsked, rsp_prog, pg_pend_q)
  `FLINT_ASSERT_IMPLY(EraseAnswerAsked, rsp_erase, er_q == ErWait)
  `FLINT_ASSERT_IMPLY(LinesOfScrub, mrd_valid_i, sc_q == ScLines)
  `FLINT_ASSERT_IMPLY(OneProgramAsked, pg_go, !pg_pend_q)
  `FLINT_ASSERT_IMPLY(RequestHeld, $past(mreq_valid_o && !mreq_ready_i),
                      mreq_valid_o && $stable(mreq_o))
  // A page counts once: never more pages than the step copies.
  `FLINT_ASSERT(CountBounded, done_q <= total_q)
  `FLINT_ASSERT_IMPLY(NoForkLineBeforeLookup, fk_q == FkRead, !(fork_valid_i &&
                      fork_lplane_i == ls_q && copying))

  // The second pass of the source scan always finds a candidate.
  `FLINT_ASSERT_IMPLY(ChooseFinds, st_q == StChoose && ch_pass_q && 32'(ch_n_q) + 1 >= PhysPl,
                      ch_hit)
  // A steal only when the copy is behind its pace and the phantom has nothing queued.
  `FLINT_ASSERT_IMPLY(StealOnlyBehind, sc_q == ScIdle && sc_d == ScFind && !idle_enough,
                      steal_due)

  // Functional cover points: each rotation phase, the fork's and the scrubber's decisions, the
  // program engine, the hot-block path (due events steering the choice of source) and a steal
  // (a busy controller parked for the copy's pace).
  `FLINT_COVER(c_steal, sc_q == ScPark && sc_steal_q && !bbc_empty_i)
  `FLINT_COVER(c_choose, st_q == StChoose)
  `FLINT_COVER(c_query, st_q == StQuery)
  `FLINT_COVER(c_alloc, st_q == StAlloc)
  `FLINT_COVER(c_copy, st_q == StCopy)
  `FLINT_COVER(c_commit, st_q == StCommit)
  `FLINT_COVER(c_settle, st_q == StSettle)
  `FLINT_COVER(c_vacate, st_q == StVacate)
  `FLINT_COVER(c_erase, st_q == StErase)
  `FLINT_COVER(c_fork_take, fk_q == FkTake)
  `FLINT_COVER(c_fork_skip, fk_q == FkSkip)
  `FLINT_COVER(c_fork_cancel, fq_cancel)
  `FLINT_COVER(c_scrub_park, sc_q == ScPark && parked_i)
  `FLINT_COVER(c_scrub_push, sc_line_go)
  `FLINT_COVER(c_program, pg_go)
  `FLINT_COVER(c_scrub_no_room, sc_q == ScSrc && !pq_room)
  `FLINT_COVER(c_requests_contend, $countones({sc_req, er_req, pg_req}) > 1)
  `FLINT_COVER(c_due_event, evt_valid_i && !evt_limit_i)
  `FLINT_COVER(c_due_steers_choice, st_q == StChoose && |(cand & due_q))
  `FLINT_COVER(c_limit_event, evt_valid_i && evt_limit_i)
  `FLINT_COVER(c_halt, st_q == StHalt)
endmodule
`default_nettype wire
