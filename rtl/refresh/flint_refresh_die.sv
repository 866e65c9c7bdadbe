// Phantom-plane refresh controller of one die (paper section 4.2; docs/refresh.md, "The refresh
// controller as built"). Mode 0 (FLINT) rotates the phantom role; Mode 2 (none) only watches
// the read counters. This module is the rotation; per step:
//   choose   the source plane S (flint_refresh_choose): round-robin over the planes that are not
//            the phantom P, each once a pass, a plane with a counter past its trip point first;
//   query    S's blocks (relocation table Query): S holds every block of one logical plane lS
//            (the rotation keeps it so); src[b] = S's block holding logical block b;
//   alloc    a copy target on P for every live logical block (b < live_blocks_i: Alloc),
//            tgt[b], next[b] = 0 (a block that holds nothing gets its target at its commit);
//   copy     pages reach P in page order per block (3D NAND programs a block's pages in order,
//            so the pages of a block already copied are always a prefix: next[b], the next page
//            to copy, replaces the paper's per-page migration bitmap), from a foreground read
//            (flint_refresh_fork) or from the scrubber (flint_refresh_scrub); they wait in the
//            program queue (flint_progq) and are programmed into P at tgt[b] one after the other
//            (flint_refresh_copy); a failed program retires P's block and restarts the block's
//            copy into another (flint_refresh_copy: the copy pauses meanwhile);
//   commit   once every page is programmed: Commit each block (S's block becomes Vacated, P
//            now serves logical plane lS; an empty block's target Alloc'd first) and tell the
//            stripe table;
//   vacate   wait until no burst in the page or cache buffers reads S (park if idle);
//   erase    S's blocks (flint_refresh_copy's erase engine), Release them (MarkBad if the erase
//            failed), reset their read counts; S is the new phantom.
// P without a free good block when one is needed (bad blocks took the room, docs/refresh.md Q4)
// halts the die with RefreshErrNoSpare.
// This module wires the step's parts: its phase FSM, planes, page counts and error code
// (flint_refresh_step), its tables src[], tgt[], next[] (flint_refresh_tables), the program queue
// (flint_progq), the fork, the scrubber, the source choice, the relocation and counter commands
// (flint_refresh_cmd) and the engines (flint_refresh_copy, whose one client port on the die's
// maintenance sequencer is all its NAND access: docs/nand_seq.md). Programs and erases go only
// to P (copy) and to S after it left every stripe (erase): a foreground read never waits on
// either. The one foreground cost is the scrubber's park (stat_park_wait of the BBC counts it).
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_die #(
  parameter int unsigned Mode     = 0,   // 0 FLINT phantom rotation, 2 none
  parameter int unsigned IdleWait = flint_cfg_pkg::BurstPeriodCycles,  // idle cycles to scrub
  parameter int unsigned StealPace = 0,  // 0: scrub only when idle; N: keep a page a N cycles
  parameter int unsigned Settle   = 4,   // cycles after the last commit before S is checked
  // do not override
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
  localparam int unsigned StW       = flint_pkg::StatusWidth
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
  input  logic                     sense_free_i,   // its page buffers free (parking)
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
  output flint_cfg_pkg::rc_cmd_t   rc_o,
  input  logic                     rc_rsp_valid_i,
  output logic                     rc_rsp_ready_o,
  input  flint_cfg_pkg::rc_rsp_t   rc_rsp_i,
  // read-counter reset of an erased block (through flint_refresh's arbiter)
  output logic                     cc_valid_o,
  input  logic                     cc_ready_i,
  output flint_cfg_pkg::pblk_t     cc_o,
  input  logic                     cc_rsp_valid_i,
  // a committed relocation, for the stripe table
  output logic                     upd_valid_o,
  output flint_cfg_pkg::upd_t      upd_o,
  // the scrubber's own senses, for the read counters (a pulse: the feed holds it)
  output logic                     sn_valid_o,
  output flint_cfg_pkg::pblk_t     sn_o,
  // read-counter trip events of this die
  input  logic                     evt_valid_i,
  output logic                     evt_ready_o,
  input  flint_cfg_pkg::evt_t      evt_i,
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
  output logic [31:0]              retired_prog_o, // blocks of P retired: failed program
  output logic [31:0]              retired_erase_o,// blocks of S retired: failed erase
  output logic                     alarm_o,        // a block reached the disturb limit
  output logic                     err_o,
  output logic [2:0]               err_code_o      // a flint_pkg::refresh_err_e value
);
  localparam int unsigned CountBits = $clog2(Blocks * Pages + 1);
  localparam int unsigned NextBits  = PageBits + 1;

  // The step (flint_refresh_step): phase, block index, page counts, planes, error.
  flint_pkg::refresh_phase_e ph;
  logic choose_enter, copy_start, erase_start, idx_live;
  logic [BlockBits:0] idx_q;
  logic [CountBits-1:0] total_q, done_q;
  logic [PPlBits-1:0] p_q, s_q;
  logic [LPlBits-1:0] ls_q;
  logic rc_wait_q;                      // a relocation command awaits its answer
  logic copying, retiring;              // retiring: the copy pauses (flint_refresh_copy)
  assign copying = ph == flint_pkg::RefreshCopy && !retiring;

  // The relocation table's answer: its enum fields back to their names (no casts to an enum:
  // STYLE.md). A flint_cfg_pkg struct carries them as raw bits (Yosys 0.23: gen_config.py).
  localparam int unsigned FsW = flint_pkg::FtlStatusWidth;
  localparam int unsigned BsW = flint_pkg::BlkStateWidth;
  flint_pkg::ftl_status_e rc_rsp_status;
  flint_pkg::blk_state_e rc_rsp_state;
  always_comb begin
    unique case (rc_rsp_i.status)
      FsW'(flint_pkg::FtlOutOfRange): rc_rsp_status = flint_pkg::FtlOutOfRange;
      FsW'(flint_pkg::FtlNoFree):     rc_rsp_status = flint_pkg::FtlNoFree;
      FsW'(flint_pkg::FtlBusy):       rc_rsp_status = flint_pkg::FtlBusy;
      FsW'(flint_pkg::FtlWrongState): rc_rsp_status = flint_pkg::FtlWrongState;
      default:                        rc_rsp_status = flint_pkg::FtlOk;
    endcase
    unique case (rc_rsp_i.state)
      BsW'(flint_pkg::BlkMapped):   rc_rsp_state = flint_pkg::BlkMapped;
      BsW'(flint_pkg::BlkReserved): rc_rsp_state = flint_pkg::BlkReserved;
      BsW'(flint_pkg::BlkVacated):  rc_rsp_state = flint_pkg::BlkVacated;
      BsW'(flint_pkg::BlkBad):      rc_rsp_state = flint_pkg::BlkBad;
      default:                      rc_rsp_state = flint_pkg::BlkFree;
    endcase
  end

  // The step's tables src[], tgt[], next[] (flint_refresh_tables): read data.
  logic [BlockBits-1:0] src_rd, tgt_rd;
  logic [NextBits-1:0] nx_rd;

  // --- the program queue ------------------------------------------------------------------------
  logic fq_valid, fq_open, fq_cancel, fq_room, fq_drop;
  logic [LineBits-1:0] fq_line;
  logic sq_valid, sq_ready, sq_open;
  logic [LineBits-1:0] sq_line;
  logic [DataBits:0] sq_data;
  logic pq_valid, pq_ready, pq_scrub, pq_last;
  logic [BlockBits-1:0] pq_block;
  logic [PageBits-1:0] pq_page;
  logic [LineBits-1:0] pq_line;
  logic [DataBits:0] pq_data;  // {poison, data}
  logic [$clog2(flint_cfg_pkg::ProgqPages + 1)-1:0] pq_occ, unused_pq_hw;
  logic [31:0] unused_enq_fork, unused_enq_scrub, unused_pq_dropped, unused_pq_programmed;
  logic [BlockBits-1:0] fk_b, sc_b;
  logic [PageBits-1:0] fk_p, sc_p;
  flint_progq #(
    .Slots(flint_cfg_pkg::ProgqPages), .Lines(Lines), .BeatBits(DataBits + 1), .Blocks(Blocks),
    .Pages(Pages)
  ) u_progq (
    .clk_i, .rst_ni,
    .fork_valid_i(fq_valid), .fork_open_i(fq_open), .fork_block_i(fk_b), .fork_page_i(fk_p),
    .fork_line_i(fq_line), .fork_data_i({1'b0, fork_data_i}), .fork_cancel_i(fq_cancel),
    .fork_room_o(fq_room), .fork_drop_o(fq_drop),
    .scrub_valid_i(sq_valid), .scrub_ready_o(sq_ready), .scrub_open_i(sq_open),
    .scrub_block_i(sc_b), .scrub_page_i(sc_p), .scrub_line_i(sq_line), .scrub_data_i(sq_data),
    .scrub_cancel_i(1'b0),  // a scrubbed page is always completed (poisoned if need be)
    .prog_valid_o(pq_valid), .prog_ready_i(pq_ready), .prog_block_o(pq_block),
    .prog_page_o(pq_page), .prog_scrub_o(pq_scrub), .prog_line_o(pq_line),
    .prog_last_o(pq_last), .prog_data_o(pq_data), .occupancy_o(pq_occ),
    .high_water_o(unused_pq_hw), .enq_fork_o(unused_enq_fork), .enq_scrub_o(unused_enq_scrub),
    .dropped_o(unused_pq_dropped), .programmed_o(unused_pq_programmed));

  // --- the fork: the source plane's page of ACTIVE ------------------------------------------
  logic fk_lookup, fk_decide, fk_take, fk_open, fk_done;
  logic sc_busy;
  flint_refresh_fork u_fork (
    .clk_i, .rst_ni,
    .copying_i(copying), .live_blocks_i, .ls_i(ls_q),
    .act_new_i, .act_change_i, .act_lblock_i, .act_page_i,
    .fork_valid_i, .fork_lplane_i, .fork_line_i, .fork_status_i,
    .nx_rd_i(nx_rd), .sc_busy_i(sc_busy), .sc_block_i(sc_b),
    .fq_valid_o(fq_valid), .fq_open_o(fq_open), .fq_line_o(fq_line), .fq_cancel_o(fq_cancel),
    .fq_room_i(fq_room), .fq_drop_i(fq_drop),
    .lookup_o(fk_lookup), .decide_o(fk_decide), .take_o(fk_take), .open_o(fk_open),
    .block_o(fk_b), .page_o(fk_p), .done_o(fk_done),
    .forked_o, .dropped_o);

  // --- the scrubber -----------------------------------------------------------------------------
  logic sc_req, sc_go, sc_rsp, sc_page_in, sc_park;
  logic [BlockBits-1:0] sc_cur, sc_x;
  flint_refresh_scrub #(.IdleWait(IdleWait), .StealPace(StealPace)) u_scrub (
    .clk_i, .rst_ni,
    .copying_i(copying), .step_start_i(copy_start), .live_blocks_i,
    .total_i(total_q), .done_i(done_q), .bbc_empty_i, .sense_free_i, .parked_i,
    .fk_lookup_i(fk_lookup), .fk_decide_i(fk_decide), .fk_take_i(fk_take), .fk_open_i(fk_open),
    .fk_block_i(fk_b),
    .cur_o(sc_cur), .nx_rd_i(nx_rd), .src_rd_i(src_rd),
    .busy_o(sc_busy), .park_o(sc_park), .block_o(sc_b), .page_o(sc_p), .pblock_o(sc_x),
    .page_in_o(sc_page_in),
    .pq_occ_i(pq_occ), .sq_valid_o(sq_valid), .sq_ready_i(sq_ready), .sq_open_o(sq_open),
    .sq_line_o(sq_line), .sq_data_o(sq_data),
    .req_o(sc_req), .go_i(sc_go), .rsp_i(sc_rsp),
    .mrd_valid_i, .mrd_ready_o, .mrd_data_i, .mrd_status_i, .mrd_line_i,
    .scrubbed_o, .poisoned_o);

  // --- program and erase engines, the sequencer port ---------------------------------------------
  logic pg_idle, pg_pend, er_release, er_bad, er_count, prog_fail, rt_refused, rsp_bad;
  logic rt_mark, rt_alloc, rt_set, no_spare;
  logic [BlockBits-1:0] rt_b, rt_y, rt_new;
  logic [CountBits-1:0] rt_undo;
  flint_refresh_copy u_copy (
    .clk_i, .rst_ni,
    .phantom_i(p_q), .source_i(s_q), .halt_i(err_o),
    .sc_req_i(sc_req), .sc_pblock_i(sc_x), .sc_page_i(sc_p), .sc_go_o(sc_go), .sc_rsp_o(sc_rsp),
    .pq_valid_i(pq_valid), .pq_ready_o(pq_ready), .pq_block_i(pq_block), .pq_page_i(pq_page),
    .pq_last_i(pq_last), .pq_data_i(pq_data), .tgt_rd_i(tgt_rd), .pg_idle_o(pg_idle),
    .pg_pend_o(pg_pend),
    .quiet_i(pq_occ == '0 && !pq_valid && !fk_take && !fk_open && !sc_busy),
    .retiring_o(retiring), .rt_mark_o(rt_mark), .rt_alloc_o(rt_alloc), .rt_block_o(rt_b),
    .rt_pblock_o(rt_y), .restart_o(rt_set), .rt_new_o(rt_new), .rt_undo_o(rt_undo),
    .no_spare_o(no_spare),
    .erase_i(ph == flint_pkg::RefreshErase), .erase_start_i(erase_start),
    .erase_more_i(32'(idx_q) < Blocks), .erase_block_i(idx_q[BlockBits-1:0]),
    .erase_live_i(idx_live), .rc_rsp_valid_i, .rc_rsp_status_i(rc_rsp_status),
    .rc_rsp_block_i(rc_rsp_i.block), .cc_rsp_valid_i,
    .er_release_o(er_release), .er_bad_o(er_bad), .er_count_o(er_count),
    .prog_fail_o(prog_fail), .rt_refused_o(rt_refused), .addr_bad_o(rsp_bad),
    .mreq_valid_o, .mreq_ready_i, .mreq_o, .mwr_valid_o, .mwr_ready_i, .mwr_data_o,
    .mwr_poison_o, .mrsp_valid_i, .mrsp_ready_o, .mrsp_i,
    .programmed_o, .erased_o, .retired_prog_o, .retired_erase_o);

  // --- the choice of the source, trip events ------------------------------------------------
  logic ch_hit;
  logic [PPlBits-1:0] pick;
  flint_refresh_choose u_choose (
    .clk_i, .rst_ni,
    .enter_i(choose_enter), .active_i(ph == flint_pkg::RefreshChoose),
    .phantom_i(p_q), .hit_o(ch_hit), .pick_o(pick),
    .evt_valid_i, .evt_plane_i(evt_i.plane), .evt_limit_i(evt_i.limit),
    .due_o, .limit_o, .alarm_o);
  assign evt_ready_o = 1'b1;

  // --- relocation-table and counter commands of the rotation ----------------------------------
  // No command once an error is seen: the phase moves to RefreshHalt a cycle after err_o rises, and
  // without the gate that cycle re-sent the command an answer had just refused (an Alloc
  // answered NoFree was sent again; tb/refresh's model flags a command after the halt).
  logic cm_rsp, tgt_al, cmd_no_spare, cmd_reloc;
  flint_refresh_cmd u_cmd (
    .clk_i, .rst_ni,
    .query_i(ph == flint_pkg::RefreshQuery && !err_o),
    .alloc_i(ph == flint_pkg::RefreshAlloc && !err_o),
    .copy_i(ph == flint_pkg::RefreshCopy && !err_o),
    .commit_i(ph == flint_pkg::RefreshCommit && !err_o),
    .erase_i(ph == flint_pkg::RefreshErase && !err_o), .idx_i(idx_q), .live_blocks_i,
    .phantom_i(p_q), .source_i(s_q), .ls_i(ls_q), .tgt_rd_i(tgt_rd),
    .rt_mark_i(rt_mark), .rt_alloc_i(rt_alloc), .rt_block_i(rt_b), .rt_pblock_i(rt_y),
    .er_release_i(er_release), .er_bad_i(er_bad), .er_count_i(er_count),
    .rc_valid_o, .rc_ready_i, .rc_op_o(rc_o.op), .rc_plane_o(rc_o.plane),
    .rc_block_o(rc_o.block), .rc_rsp_valid_i, .rc_rsp_ready_o, .rc_rsp_status_i(rc_rsp_status),
    .rc_rsp_plane_i(rc_rsp_i.plane),
    .cc_valid_o, .cc_ready_i, .cc_plane_o(cc_o.plane), .cc_block_o(cc_o.block), .cc_rsp_valid_i,
    .wait_o(rc_wait_q), .commit_ans_o(cm_rsp), .upd_valid_o, .upd_pblock_o(upd_o.pblock),
    .tgt_we_o(tgt_al),
    .no_spare_o(cmd_no_spare), .reloc_o(cmd_reloc));

  // --- the step ---------------------------------------------------------------------------------
  flint_refresh_step #(.Mode(Mode), .Settle(Settle)) u_step (
    .clk_i, .rst_ni, .enable_i, .live_blocks_i, .res_planes_i,
    .hit_i(ch_hit), .pick_i(pick),
    .rc_rsp_valid_i, .rc_rsp_state_i(rc_rsp_state), .rc_rsp_lplane_i(rc_rsp_i.lplane),
    .rc_rsp_lblock_i(rc_rsp_i.lblock), .rc_wait_i(rc_wait_q),
    .commit_ans_i(cm_rsp), .er_count_i(er_count), .cc_rsp_valid_i,
    .page_in_i(fk_done || sc_page_in),
    .drained_i(pq_occ == '0 && pg_idle && !pq_valid && !pg_pend && !fk_take && !fk_open &&
               !sc_busy && !retiring),
    .restart_i(rt_set), .undo_i(rt_undo),
    .no_spare_i(no_spare || cmd_no_spare), .prog_fail_i(prog_fail),
    .reloc_i(cmd_reloc || rt_refused), .addr_bad_i(rsp_bad),
    .phase_o(ph), .choose_enter_o(choose_enter), .copy_start_o(copy_start),
    .erase_start_o(erase_start), .idx_o(idx_q), .total_o(total_q), .done_o(done_q),
    .phantom_o(p_q), .source_o(s_q), .ls_o(ls_q), .idx_live_o(idx_live), .rotations_o, .err_o,
    .err_code_o);

  // --- the step's tables -------------------------------------------------------------------------
  flint_refresh_tables u_tables (
    .clk_i,
    .query_i(ph == flint_pkg::RefreshQuery), .alloc_i(ph == flint_pkg::RefreshAlloc),
    .commit_i(ph == flint_pkg::RefreshCommit), .idx_i(idx_q[BlockBits-1:0]),
    .rc_rsp_valid_i, .rc_rsp_state_i(rc_rsp_state), .rc_rsp_block_i(rc_rsp_i.block),
    .rc_rsp_lblock_i(rc_rsp_i.lblock), .tgt_we_i(tgt_al),
    .restart_i(rt_set), .restart_block_i(rt_b), .restart_new_i(rt_new),
    .fk_done_i(fk_done), .fk_block_i(fk_b), .fk_page_i(fk_p),
    .sc_done_i(sc_page_in), .sc_block_i(sc_b), .sc_page_i(sc_p),
    .fk_lookup_i(fk_lookup), .act_lblock_i, .sc_cur_i(sc_cur), .pq_block_i(pq_block),
    .src_rd_o(src_rd), .tgt_rd_o(tgt_rd), .nx_rd_o(nx_rd));

  // The scrubber's sense, for the read counters. It parks the controller until the sequencer
  // has its read (the sequencer then parks and holds it for the read's own steps).
  assign sn_valid_o = sc_go;
  assign sn_o.plane = s_q;
  assign sn_o.block = sc_x;
  assign park_o = sc_park || (ph == flint_pkg::RefreshVacate && bbc_empty_i);
  // The block of a trip event does not matter here: the rotation copies whole planes.
  logic unused_refresh;
  assign unused_refresh = ^{evt_i.block, pq_scrub, pq_line, mrd_last_i};
  assign upd_o.lplane = rc_rsp_i.lplane;
  assign upd_o.lblock = rc_rsp_i.lblock;
  assign upd_o.pplane = p_q;

  assign phantom_o = p_q;
  assign source_o = s_q;
  assign phase_o = ph;

  // --- invariants ------------------------------------------------------------------------------
  // Erases only of the source once it left every stripe, and never while a burst in the buffers
  // names the plane; the phantom is never resident: a foreground read never waits on them (the
  // programs go only to the phantom: flint_refresh_copy).
  `FLINT_ASSERT_IMPLY(PhantomNeverResident, ph == flint_pkg::RefreshChoose ||
                      ph == flint_pkg::RefreshQuery || ph == flint_pkg::RefreshAlloc ||
                      ph == flint_pkg::RefreshCopy, !res_planes_i[p_q])
  `FLINT_ASSERT_IMPLY(EraseOnlyVacated, mreq_valid_o && mreq_o.op == flint_pkg::MaintEraseBlock,
                      ph == flint_pkg::RefreshErase && !res_planes_i[s_q])
  // The scrubber asks for its read only while it parks the controller (the sequencer then
  // Reads only once its page buffers are free and moves the page only once it is parked,
  // flint_maint_seq).
  `FLINT_ASSERT_IMPLY(ScrubOnlyParked, mreq_valid_o && mreq_o.op == flint_pkg::MaintReadPage,
                      park_o)
  // The step's own invariants and its phase cover points are flint_refresh_step's; the fork's,
  // the scrubber's, the engines' and the trip events' are in their modules.
endmodule
`default_nettype wire
