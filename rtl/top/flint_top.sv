// FLINT: the HBF base die of one stack (docs/top.md). The accelerator port and the burst-buffer
// controller (flint_bbc), translation through the BTT and the stripe table (flint_xlat), the
// relocation table and read-disturb counters (flint_reloc_table, flint_read_counters, fed every
// sense by flint_sense_feed), phantom-plane refresh (flint_refresh), the model-load write path
// (flint_loader) and one command port a NAND die (flint_die_port).
//
// Power-up is a clean install: out of reset every table clears itself (ready_o rises when all
// have), the accelerator port answers NOT_LOADED until a load is done, and the runtime loads the
// model with load_start_i (erase and program, docs/top.md). One load per reset, after ready_o:
// any other start is refused (load_refused_o; after a load the relocation table has moved on).
// Refresh runs once the load is done without error.
`default_nettype none
`include "flint_assert.svh"
module flint_top #(
  parameter int unsigned Policy    = 1,  // burst pick: 0 FCFS, 1 most-pending
  // refresh: 0 FLINT phantom rotation, 1 in-place distributed, 2 none, 3 in-place burst
  parameter int unsigned Mode      = 0,
  parameter int unsigned Placement = 1,  // model load: 0 linear, 1 interleaved
  parameter int unsigned IdleWait  = flint_cfg_pkg::BurstPeriodCycles,
  // FLINT's scrubber also steals a read from a busy controller when the copy falls behind a page
  // every StealPace cycles: 1.1x the phantom's program time a page (data-in and tPROG), inside
  // the rotation's margin (docs/refresh.md, "Program-queue demand, measured"); 0 scrubs only when
  // idle, as the paper does
  parameter int unsigned StealPace = (flint_cfg_pkg::TProgCycles + flint_cfg_pkg::ClPerPage) *
                                     11 / 10,
  parameter int unsigned DisturbLimit = flint_cfg_pkg::DisturbLimit,
  // read-counter trip points spread over 2^StaggerBits senses: 1/8 to 1/16 of the limit for
  // FLINT; aligned for in-place burst; for in-place distributed the counts start spread over
  // half the limit and trip at one point (PhaseStagger: no block refreshed early twice;
  // docs/refresh.md)
  parameter int unsigned StaggerBits  = (Mode == 3) ? 0 :
                                        (Mode == 1) ? $clog2(DisturbLimit) - 1 :
                                                      $clog2(DisturbLimit) - 3,
  parameter int unsigned AddrW     = 48,
  // do not override
  localparam int unsigned Lanes     = flint_cfg_pkg::Lanes,
  localparam int unsigned Dies      = flint_cfg_pkg::Dies,
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned IdBits    = flint_cfg_pkg::ReqIdBits,
  localparam int unsigned DieBits   = flint_cfg_pkg::DieBits,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned BurstBits = flint_cfg_pkg::BurstIdxBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth,
  localparam int unsigned StripeP   = Planes * PPlBits,
  localparam int unsigned StripeB   = Planes * BlockBits
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  output logic                         ready_o,          // every table cleared after reset
  // model load
  input  logic                         load_start_i,
  input  logic [BurstBits:0]           load_bursts_i,
  input  logic                         load_erase_i,
  input  logic                         load_mount_i,     // the dies hold the image: BTT only
  input  logic                         load_valid_i,
  output logic                         load_ready_o,
  input  logic [DataBits-1:0]          load_data_i,
  output logic                         load_busy_o,
  output logic                         load_done_o,
  output logic                         load_refused_o,
  output logic [BurstBits:0]           loaded_o,         // bursts in service
  output logic [BlockBits:0]           live_blocks_o,    // blocks a plane the load fills
  output logic [BurstBits:0]           load_progress_o,
  output logic [63:0]                  load_cycles_o,
  output logic                         load_err_o,
  output logic [1:0]                   load_err_code_o,
  output logic [DieBits-1:0]           load_err_die_o,
  output logic [PPlBits-1:0]           load_err_plane_o,
  output logic [BlockBits-1:0]         load_err_block_o,
  output logic [PageBits-1:0]          load_err_page_o,
  // accelerator port
  input  logic [Lanes-1:0]             req_valid_i,
  output logic [Lanes-1:0]             req_ready_o,
  input  logic [Lanes*IdBits-1:0]      req_id_i,
  input  logic [Lanes*AddrW-1:0]       req_addr_i,
  output logic [Lanes-1:0]             rsp_valid_o,
  output logic [Lanes*IdBits-1:0]      rsp_id_o,
  output logic [Lanes*StW-1:0]         rsp_status_o,
  output logic [Lanes*DataBits-1:0]    rsp_data_o,
  // the NAND dies: the read port (burst commands, data-outs)
  output logic [Dies-1:0]              nand_valid_o,
  output logic [Dies*CmdW-1:0]         nand_op_o,
  output logic [Dies*PageBits-1:0]     nand_page_o,
  output logic [Dies*StripeP-1:0]      nand_planes_o,
  output logic [Dies*StripeB-1:0]      nand_blocks_o,
  output logic [Dies*PPlBits-1:0]      nand_plane_o,
  output logic [Dies*OffBits-1:0]      nand_offset_o,
  output logic [Dies*OffBits-1:0]      nand_nbytes_o,
  // the maintenance port (Program, Erase; one-plane Read, CacheEnd, DataOut) and data-in
  output logic [Dies-1:0]              nand_m_valid_o,
  output logic [Dies*CmdW-1:0]         nand_m_op_o,
  output logic [Dies*PPlBits-1:0]      nand_m_plane_o,
  output logic [Dies*BlockBits-1:0]    nand_m_block_o,
  output logic [Dies*PageBits-1:0]     nand_m_page_o,
  output logic [Dies*OffBits-1:0]      nand_m_offset_o,
  output logic [Dies*OffBits-1:0]      nand_m_nbytes_o,
  output logic [Dies-1:0]              nand_din_valid_o,
  output logic [Dies*LineW-1:0]        nand_din_data_o,
  input  logic [Dies*PhysPl-1:0]       die_plane_idle_i,
  input  logic [Dies*PhysPl-1:0]       die_plane_cache_i,
  input  logic [Dies*PhysPl-1:0]       die_plane_fail_i,
  input  logic [Dies-1:0]              die_io_ready_i,
  input  logic [Dies-1:0]              die_data_valid_i,
  input  logic [Dies*LineW-1:0]        die_data_i,
  // burst-buffer controller statistics
  output logic                         sense_o,
  output logic [BurstBits-1:0]         sense_burst_o,
  output logic [63:0]                  stat_requests_o,
  output logic [63:0]                  stat_responses_o,
  output logic [63:0]                  stat_bursts_o,
  output logic [63:0]                  stat_refetched_o,
  output logic [63:0]                  stat_useful_bytes_o,
  output logic [63:0]                  stat_fetched_bytes_o,
  output logic [63:0]                  stat_link_slots_o,
  output logic [63:0]                  stat_busy_cycles_o,
  output logic [63:0]                  stat_queue_high_water_o,
  output logic [63:0]                  stat_displacements_o,
  output logic [63:0]                  stat_park_wait_o,
  // refresh status, a field a die
  output logic [Dies*PPlBits-1:0]      rf_phantom_o,
  output logic [Dies*PPlBits-1:0]      rf_source_o,
  output logic [Dies*4-1:0]            rf_phase_o,
  output logic [Dies*32-1:0]           rf_rotations_o,
  output logic [Dies*32-1:0]           rf_forked_o,
  output logic [Dies*32-1:0]           rf_scrubbed_o,
  output logic [Dies*32-1:0]           rf_programmed_o,
  output logic [Dies*32-1:0]           rf_erased_o,
  output logic [Dies*32-1:0]           rf_dropped_o,
  output logic [Dies*32-1:0]           rf_poisoned_o,
  output logic [Dies*32-1:0]           rf_due_o,
  output logic [Dies*32-1:0]           rf_limit_o,
  output logic [Dies*32-1:0]           rf_retired_prog_o,   // blocks retired: failed program
  output logic [Dies*32-1:0]           rf_retired_erase_o,  // blocks retired: failed erase
  output logic [Dies-1:0]              rf_alarm_o,
  output logic [Dies-1:0]              rf_err_o,
  output logic [Dies*3-1:0]            rf_err_code_o,
  // the remaps the refresh commits: (die, logical plane, logical block) now at (plane, block)
  output logic                         remap_valid_o,
  output logic [DieBits-1:0]           remap_die_o,
  output logic [LPlBits-1:0]           remap_lplane_o,
  output logic [BlockBits-1:0]         remap_lblock_o,
  output logic [PPlBits-1:0]           remap_pplane_o,
  output logic [BlockBits-1:0]         remap_pblock_o,
  output logic                         counters_err_o,
  output logic                         sense_overflow_o
);
  // --- model load ---------------------------------------------------------------------------------
  logic started_q, start;
  assign start = load_start_i && !started_q && ready_o;
  logic btt_clear, btt_valid, btt_ready;
  logic [BurstBits-1:0] btt_idx;
  logic [BlockBits-1:0] btt_block;
  logic [PageBits-1:0] btt_page;
  // The loader's NAND work goes through the maintenance sequencer of each die (in g_die below),
  // as client 0 of the die's flint_maint_arb.
  logic [Dies-1:0] ld_req_valid, ld_req_ready, ld_wr_valid, ld_wr_ready, ld_rsp_valid, ld_rsp_ready;
  logic [Dies*flint_pkg::MaintReqWidth-1:0] ld_req;
  logic [Dies*flint_pkg::MaintRspWidth-1:0] ld_rsp;
  logic [flint_cfg_pkg::ClDataBits-1:0] ld_wr_data;
  flint_loader #(
    .Placement(Placement)
  ) u_loader (
    .clk_i, .rst_ni,
    .start_i       (start),
    .n_bursts_i    (load_bursts_i),
    .erase_i       (load_erase_i),
    .mount_i       (load_mount_i),
    .busy_o        (load_busy_o),
    .done_o        (load_done_o),
    .loaded_o      (loaded_o),
    .live_blocks_o (live_blocks_o),
    .progress_o    (load_progress_o),
    .cycles_o      (load_cycles_o),
    .err_o         (load_err_o),
    .err_code_o    (load_err_code_o),
    .err_die_o     (load_err_die_o),
    .err_plane_o   (load_err_plane_o),
    .err_block_o   (load_err_block_o),
    .err_page_o    (load_err_page_o),
    .data_valid_i  (load_valid_i),
    .data_ready_o  (load_ready_o),
    .data_i        (load_data_i),
    .btt_clear_o   (btt_clear),
    .btt_valid_o   (btt_valid),
    .btt_ready_i   (btt_ready),
    .btt_idx_o     (btt_idx),
    .btt_block_o   (btt_block),
    .btt_page_o    (btt_page),
    .mreq_valid_o  (ld_req_valid),
    .mreq_ready_i  (ld_req_ready),
    .mreq_o        (ld_req),
    .mwr_valid_o   (ld_wr_valid),
    .mwr_ready_i   (ld_wr_ready),
    .mwr_data_o    (ld_wr_data),
    .mrsp_valid_i  (ld_rsp_valid),
    .mrsp_ready_o  (ld_rsp_ready),
    .mrsp_i        (ld_rsp)
  );
  assign load_refused_o = load_start_i && !start;
  logic serving;
  assign serving = load_done_o && !load_err_o && loaded_o != '0;

  // --- translation ----------------------------------------------------------------------------
  logic xlat_busy, unused_xlat_ok;
  logic [BurstBits-1:0] xlat_burst;
  logic [BlockBits-1:0] xlat_lblock;
  logic [PageBits-1:0] xlat_page;
  logic [Dies*StripeP-1:0] xlat_planes;
  logic [Dies*StripeB-1:0] xlat_blocks;
  logic upd_valid;
  flint_cfg_pkg::stack_upd_t upd;
  flint_xlat u_xlat (
    .clk_i, .rst_ni,
    .busy_o       (xlat_busy),
    .btt_clear_i  (btt_clear),
    .load_valid_i (btt_valid),
    .load_ready_o (btt_ready),
    .load_idx_i   (btt_idx),
    .load_block_i (btt_block),
    .load_page_i  (btt_page),
    .xlat_burst_i (xlat_burst),
    .xlat_ok_o    (unused_xlat_ok),
    .xlat_lblock_o(xlat_lblock),
    .xlat_page_o  (xlat_page),
    .xlat_planes_o(xlat_planes),
    .xlat_blocks_o(xlat_blocks),
    .upd_valid_i  (upd_valid),
    .upd_die_i    (upd.die),
    .upd_lplane_i (upd.lplane),
    .upd_lblock_i (upd.lblock),
    .upd_pplane_i (upd.pplane),
    .upd_pblock_i (upd.pblock)
  );

  // --- the burst-buffer controller --------------------------------------------------------------
  logic bbc_ready, park, hold, sense_free, parked, bbc_empty, act_new, act_change;
  logic [BlockBits-1:0] act_lblock, sense_lblock;
  logic [PageBits-1:0] act_page;
  logic [Dies*PhysPl-1:0] res_planes;
  logic [Dies-1:0] fork_valid;
  logic [Dies*LPlBits-1:0] fork_lplane;
  logic [Dies*LineBits-1:0] fork_line;
  logic [Dies*StW-1:0] fork_status;
  logic [Dies*DataBits-1:0] fork_data;
  logic [Dies-1:0] s_data_valid;
  logic act_valid;
  flint_bbc #(
    .Policy (Policy),
    .AddrW  (AddrW),
    .XlatLat(2)
  ) u_bbc (
    .clk_i, .rst_ni,
    .loaded_bursts_i        (serving ? loaded_o : '0),
    .ready_o                (bbc_ready),
    .req_valid_i, .req_ready_o, .req_id_i, .req_addr_i,
    .rsp_valid_o, .rsp_id_o, .rsp_status_o, .rsp_data_o,
    .xlat_burst_o           (xlat_burst),
    .xlat_lblock_i          (xlat_lblock),
    .xlat_page_i            (xlat_page),
    .xlat_planes_i          (xlat_planes),
    .xlat_blocks_i          (xlat_blocks),
    .die_plane_idle_i,
    .die_plane_cache_i,
    .die_io_ready_i,
    .nand_valid_o,
    .nand_op_o,
    .nand_page_o,
    .nand_planes_o,
    .nand_blocks_o,
    .nand_plane_o,
    .nand_offset_o,
    .nand_nbytes_o,
    .die_data_valid_i       (s_data_valid),
    .die_data_i,
    .sense_o,
    .sense_burst_o,
    .sense_lblock_o         (sense_lblock),
    .park_i                 (park),
    .hold_i                 (hold),
    .sense_free_o           (sense_free),
    .parked_o               (parked),
    .empty_o                (bbc_empty),
    .res_planes_o           (res_planes),
    .act_valid_o            (act_valid),
    .act_new_o              (act_new),
    .act_change_o           (act_change),
    .act_lblock_o           (act_lblock),
    .act_page_o             (act_page),
    .fork_valid_o           (fork_valid),
    .fork_lplane_o          (fork_lplane),
    .fork_line_o            (fork_line),
    .fork_status_o          (fork_status),
    .fork_data_o            (fork_data),
    .stat_requests_o, .stat_responses_o, .stat_bursts_o, .stat_refetched_o,
    .stat_useful_bytes_o, .stat_fetched_bytes_o, .stat_link_slots_o, .stat_busy_cycles_o,
    .stat_queue_high_water_o, .stat_displacements_o, .stat_park_wait_o
  );

  // --- relocation table, read counters and the sense feed --------------------------------------
  logic reloc_busy, lk_valid, lk_ready, lk_rsp_valid, lk_rsp_ready;
  logic [DieBits-1:0] lk_die;
  logic [LPlBits-1:0] lk_plane;
  logic [BlockBits-1:0] lk_block, lk_rsp_block;
  logic [PPlBits-1:0] lk_rsp_plane, unused_lk_phantom;
  // The refresh's command and the table's answer (flint_cfg_pkg's structs: their enum fields are
  // raw bits, the op decoded here onto the table's enum by its names, no casts to an enum).
  logic rc_valid, rc_ready, rc_rsp_valid, rc_rsp_ready;
  flint_cfg_pkg::stack_rc_cmd_t rc;
  flint_cfg_pkg::rc_rsp_t rc_rsp;
  localparam int unsigned RcW = flint_pkg::RelocCmdWidth;
  flint_pkg::reloc_cmd_e rc_op;
  flint_pkg::ftl_status_e rc_rsp_status;
  flint_pkg::blk_state_e rc_rsp_state;
  always_comb begin
    unique case (rc.op)
      RcW'(flint_pkg::RelocCmdAlloc):   rc_op = flint_pkg::RelocCmdAlloc;
      RcW'(flint_pkg::RelocCmdCommit):  rc_op = flint_pkg::RelocCmdCommit;
      RcW'(flint_pkg::RelocCmdRelease): rc_op = flint_pkg::RelocCmdRelease;
      RcW'(flint_pkg::RelocCmdMarkBad): rc_op = flint_pkg::RelocCmdMarkBad;
      default:                          rc_op = flint_pkg::RelocCmdQuery;
    endcase
  end
  assign rc_rsp.status = rc_rsp_status;
  assign rc_rsp.state = rc_rsp_state;
  flint_reloc_table u_reloc (
    .clk_i, .rst_ni,
    .busy_o          (reloc_busy),
    .lk_valid_i      (lk_valid),
    .lk_ready_o      (lk_ready),
    .lk_die_i        (lk_die),
    .lk_plane_i      (lk_plane),
    .lk_block_i      (lk_block),
    .lk_rsp_valid_o  (lk_rsp_valid),
    .lk_rsp_ready_i  (lk_rsp_ready),
    .lk_rsp_plane_o  (lk_rsp_plane),
    .lk_rsp_block_o  (lk_rsp_block),
    .lk_rsp_phantom_o(unused_lk_phantom),
    .cmd_valid_i     (rc_valid),
    .cmd_ready_o     (rc_ready),
    .cmd_op_i        (rc_op),
    .cmd_die_i       (rc.die),
    .cmd_plane_i     (rc.plane),
    .cmd_block_i     (rc.block),
    .cmd_rsp_valid_o (rc_rsp_valid),
    .cmd_rsp_ready_i (rc_rsp_ready),
    .cmd_rsp_status_o(rc_rsp_status),
    .cmd_rsp_state_o (rc_rsp_state),
    .cmd_rsp_plane_o (rc_rsp.plane),
    .cmd_rsp_block_o (rc_rsp.block),
    .cmd_rsp_lplane_o(rc_rsp.lplane),
    .cmd_rsp_lblock_o(rc_rsp.lblock)
  );

  logic cnt_busy, cnt_valid, cnt_ready;
  logic [DieBits-1:0] cnt_die;
  logic [PPlBits-1:0] cnt_plane;
  logic [BlockBits-1:0] cnt_block;
  logic cc_valid, cc_ready, cc_rsp_valid, cc_rsp_ready, unused_cc_ok;
  flint_cfg_pkg::stack_pblk_t cc;
  logic [$clog2(DisturbLimit + 1)-1:0] unused_cc_count;
  logic evt_valid, evt_ready;
  flint_cfg_pkg::stack_evt_t evt;
  flint_read_counters #(
    .DisturbLimit(DisturbLimit),
    .CountBits   ($clog2(DisturbLimit + 1)),
    .StaggerBits (StaggerBits),
    .TripMargin  (DisturbLimit / 16),
    .PhaseStagger(Mode == 1 ? 1 : 0)
  ) u_counters (
    .clk_i, .rst_ni,
    .busy_o         (cnt_busy),
    .err_o          (counters_err_o),
    .sense_valid_i  (cnt_valid),
    .sense_ready_o  (cnt_ready),
    .sense_die_i    (cnt_die),
    .sense_plane_i  (cnt_plane),
    .sense_block_i  (cnt_block),
    .cmd_valid_i    (cc_valid),
    .cmd_ready_o    (cc_ready),
    .cmd_read_i     (1'b0),
    .cmd_die_i      (cc.die),
    .cmd_plane_i    (cc.plane),
    .cmd_block_i    (cc.block),
    .cmd_rsp_valid_o(cc_rsp_valid),
    .cmd_rsp_ready_i(cc_rsp_ready),
    .cmd_rsp_ok_o   (unused_cc_ok),
    .cmd_rsp_count_o(unused_cc_count),
    .evt_valid_o    (evt_valid),
    .evt_ready_i    (evt_ready),
    .evt_die_o      (evt.die),
    .evt_plane_o    (evt.plane),
    .evt_block_o    (evt.block),
    .evt_limit_o    (evt.limit)
  );

  // The scrubbers' senses: a flint_cfg_pkg::pblk_t a die.
  logic [Dies-1:0] sn_valid;
  logic [Dies*flint_cfg_pkg::PblkWidth-1:0] sn;
  flint_sense_feed u_feed (
    .clk_i, .rst_ni,
    .sense_i       (sense_o),
    .sense_lblock_i(sense_lblock),
    .own_i         (sn_valid),
    .own_blk_i     (sn),
    .lk_valid_o    (lk_valid),
    .lk_ready_i    (lk_ready),
    .lk_die_o      (lk_die),
    .lk_plane_o    (lk_plane),
    .lk_block_o    (lk_block),
    .lk_rsp_valid_i(lk_rsp_valid),
    .lk_rsp_ready_o(lk_rsp_ready),
    .lk_rsp_plane_i(lk_rsp_plane),
    .lk_rsp_block_i(lk_rsp_block),
    .cnt_valid_o   (cnt_valid),
    .cnt_ready_i   (cnt_ready),
    .cnt_die_o     (cnt_die),
    .cnt_plane_o   (cnt_plane),
    .cnt_block_o   (cnt_block),
    .overflow_o    (sense_overflow_o)
  );

  // --- refresh ----------------------------------------------------------------------------------
  // Its transactions on the dies' sequencers (client 1 of each die's arbiter).
  logic [Dies-1:0] rf_sq_req_valid, rf_sq_req_ready, rf_sq_wr_valid, rf_sq_wr_ready;
  logic [Dies-1:0] rf_sq_wr_poison, rf_sq_rd_valid, rf_sq_rd_ready, rf_sq_rd_last;
  logic [Dies-1:0] rf_sq_rsp_valid, rf_sq_rsp_ready;
  logic [Dies*flint_pkg::MaintReqWidth-1:0] rf_sq_req;
  logic [Dies*flint_pkg::MaintRspWidth-1:0] rf_sq_rsp;
  logic [Dies*flint_cfg_pkg::ClDataBits-1:0] rf_sq_wr_data, rf_sq_rd_data;
  logic [Dies*flint_pkg::StatusWidth-1:0] rf_sq_rd_status;
  logic [Dies*LineBits-1:0] rf_sq_rd_line;
  logic rf_park;
  logic [Dies-1:0] sq_park;  // each die's sequencer parks the controller for its reads
  logic [Dies-1:0] sq_hold;  // and then holds its cache buffers while it reads its page out
  logic [Dies-1:0] sq_out;   // the sequencer's command is a DataOut
  assign park = rf_park || sq_park != '0;
  assign hold = sq_hold != '0;
  flint_refresh #(
    .Mode     (Mode),
    .IdleWait (IdleWait),
    .StealPace(StealPace)
  ) u_refresh (
    .clk_i, .rst_ni,
    .enable_i      (serving),
    .live_blocks_i (live_blocks_o),
    .act_new_i     (act_new),
    .act_change_i  (act_change),
    .act_lblock_i  (act_lblock),
    .act_page_i    (act_page),
    .fork_valid_i  (fork_valid),
    .fork_lplane_i (fork_lplane),
    .fork_line_i   (fork_line),
    .fork_status_i (fork_status),
    .fork_data_i   (fork_data),
    .bbc_empty_i   (bbc_empty),
    .sense_free_i  (sense_free),
    .parked_i      (parked),
    .res_planes_i  (res_planes),
    .park_o        (rf_park),
    .sq_req_valid_o(rf_sq_req_valid),
    .sq_req_ready_i(rf_sq_req_ready),
    .sq_req_o      (rf_sq_req),
    .sq_wr_valid_o (rf_sq_wr_valid),
    .sq_wr_ready_i (rf_sq_wr_ready),
    .sq_wr_data_o  (rf_sq_wr_data),
    .sq_wr_poison_o(rf_sq_wr_poison),
    .sq_rd_valid_i (rf_sq_rd_valid),
    .sq_rd_ready_o (rf_sq_rd_ready),
    .sq_rd_data_i  (rf_sq_rd_data),
    .sq_rd_status_i(rf_sq_rd_status),
    .sq_rd_line_i  (rf_sq_rd_line),
    .sq_rd_last_i  (rf_sq_rd_last),
    .sq_rsp_valid_i(rf_sq_rsp_valid),
    .sq_rsp_ready_o(rf_sq_rsp_ready),
    .sq_rsp_i      (rf_sq_rsp),
    .rc_valid_o    (rc_valid),
    .rc_ready_i    (rc_ready),
    .rc_o          (rc),
    .rc_rsp_valid_i(rc_rsp_valid),
    .rc_rsp_ready_o(rc_rsp_ready),
    .rc_rsp_i      (rc_rsp),
    .cc_valid_o    (cc_valid),
    .cc_ready_i    (cc_ready),
    .cc_o          (cc),
    .cc_rsp_valid_i(cc_rsp_valid),
    .cc_rsp_ready_o(cc_rsp_ready),
    .evt_valid_i   (evt_valid),
    .evt_ready_o   (evt_ready),
    .evt_i         (evt),
    .upd_valid_o   (upd_valid),
    .upd_o         (upd),
    .sn_valid_o    (sn_valid),
    .sn_o          (sn),
    .phantom_o     (rf_phantom_o),
    .source_o      (rf_source_o),
    .phase_o       (rf_phase_o),
    .rotations_o   (rf_rotations_o),
    .forked_o      (rf_forked_o),
    .scrubbed_o    (rf_scrubbed_o),
    .programmed_o  (rf_programmed_o),
    .erased_o      (rf_erased_o),
    .dropped_o     (rf_dropped_o),
    .poisoned_o    (rf_poisoned_o),
    .due_o         (rf_due_o),
    .limit_o       (rf_limit_o),
    .retired_prog_o(rf_retired_prog_o),
    .retired_erase_o(rf_retired_erase_o),
    .alarm_o       (rf_alarm_o),
    .err_o         (rf_err_o),
    .err_code_o    (rf_err_code_o)
  );

  // --- a die's maintenance: its clients -> flint_maint_arb -> flint_maint_seq -> die port -------
  localparam int unsigned ReqW = flint_pkg::MaintReqWidth;
  localparam int unsigned RspW = flint_pkg::MaintRspWidth;
  localparam int unsigned DataW = flint_cfg_pkg::ClDataBits;
  for (genvar d = 0; d < Dies; d++) begin : g_die
    // The die's sequencer clients: 0 the loader (programs and erases), 1 the refresh
    // controller's die (the in-place baselines' reads, erases and programs).
    logic [1:0] c_req_valid, c_req_ready, c_wr_valid, c_wr_ready, c_rd_valid, c_rd_ready;
    logic [1:0] c_rsp_valid, c_rsp_ready;
    logic [2*ReqW-1:0] c_req;
    logic [2*DataW-1:0] c_wr_data;
    logic [DataW-1:0] c_rd_data;
    flint_pkg::status_e c_rd_status;
    logic [LineBits-1:0] c_rd_line;
    logic c_rd_last;
    flint_pkg::maint_rsp_t c_rsp;
    assign c_req_valid = {rf_sq_req_valid[d], ld_req_valid[d]};
    assign c_req = {rf_sq_req[d*ReqW +: ReqW], ld_req[d*ReqW +: ReqW]};
    assign c_wr_valid = {rf_sq_wr_valid[d], ld_wr_valid[d]};
    assign c_wr_data = {rf_sq_wr_data[d*DataW +: DataW], ld_wr_data};
    assign c_rd_ready = {rf_sq_rd_ready[d], 1'b1};  // the loader reads nothing
    assign c_rsp_ready = {rf_sq_rsp_ready[d], ld_rsp_ready[d]};
    assign {rf_sq_req_ready[d], ld_req_ready[d]} = c_req_ready;
    assign {rf_sq_wr_ready[d], ld_wr_ready[d]} = c_wr_ready;
    assign {rf_sq_rsp_valid[d], ld_rsp_valid[d]} = c_rsp_valid;
    assign rf_sq_rd_valid[d] = c_rd_valid[1];
    assign rf_sq_rd_data[d*DataW +: DataW] = c_rd_data;
    assign rf_sq_rd_status[d*StW +: StW] = c_rd_status;
    assign rf_sq_rd_line[d*LineBits +: LineBits] = c_rd_line;
    assign rf_sq_rd_last[d] = c_rd_last;
    assign ld_rsp[d*RspW +: RspW] = c_rsp;
    assign rf_sq_rsp[d*RspW +: RspW] = c_rsp;

    logic s_req_valid, s_req_ready, s_wr_valid, s_wr_ready, s_wr_poison;
    logic s_rd_valid, s_rd_ready, s_rd_last, s_rsp_valid, s_rsp_ready;
    flint_pkg::maint_req_t s_req;
    flint_pkg::maint_rsp_t s_rsp;
    logic [DataW-1:0] s_wr_data, s_rd_data;
    flint_pkg::status_e s_rd_status;
    logic [LineBits-1:0] s_rd_line;
    flint_maint_arb #(.Clients(2)) u_arb (
      .clk_i, .rst_ni,
      .c_req_valid_i (c_req_valid),
      .c_req_ready_o (c_req_ready),
      .c_req_i       (c_req),
      .c_wr_valid_i  (c_wr_valid),
      .c_wr_ready_o  (c_wr_ready),
      .c_wr_data_i   (c_wr_data),
      .c_wr_poison_i ({rf_sq_wr_poison[d], 1'b0}),
      .c_rd_valid_o  (c_rd_valid),
      .c_rd_ready_i  (c_rd_ready),
      .c_rd_data_o   (c_rd_data),
      .c_rd_status_o (c_rd_status),
      .c_rd_line_o   (c_rd_line),
      .c_rd_last_o   (c_rd_last),
      .c_rsp_valid_o (c_rsp_valid),
      .c_rsp_ready_i (c_rsp_ready),
      .c_rsp_o       (c_rsp),
      .s_req_valid_o (s_req_valid),
      .s_req_ready_i (s_req_ready),
      .s_req_o       (s_req),
      .s_wr_valid_o  (s_wr_valid),
      .s_wr_ready_i  (s_wr_ready),
      .s_wr_data_o   (s_wr_data),
      .s_wr_poison_o (s_wr_poison),
      .s_rd_valid_i  (s_rd_valid),
      .s_rd_ready_o  (s_rd_ready),
      .s_rd_data_i   (s_rd_data),
      .s_rd_status_i (s_rd_status),
      .s_rd_line_i   (s_rd_line),
      .s_rd_last_i   (s_rd_last),
      .s_rsp_valid_i (s_rsp_valid),
      .s_rsp_ready_o (s_rsp_ready),
      .s_rsp_i       (s_rsp)
    );
    logic unused_ld_rd;  // the loader's read lines (it asks for none)
    assign unused_ld_rd = c_rd_valid[0];

    logic sq_valid, sq_ready, sq_din, sq_dout;
    logic [CmdW-1:0] sq_op;
    logic [PPlBits-1:0] sq_plane;
    logic [BlockBits-1:0] sq_block;
    logic [PageBits-1:0] sq_page;
    logic [LineBits-1:0] sq_line;
    logic [LineW-1:0] sq_din_data;
    flint_maint_seq u_seq (
      .clk_i, .rst_ni,
      .req_valid_i  (s_req_valid),
      .req_ready_o  (s_req_ready),
      .req_i        (s_req),
      .wr_valid_i   (s_wr_valid),
      .wr_ready_o   (s_wr_ready),
      .wr_data_i    (s_wr_data),
      .wr_poison_i  (s_wr_poison),
      .rd_valid_o   (s_rd_valid),
      .rd_ready_i   (s_rd_ready),
      .rd_data_o    (s_rd_data),
      .rd_status_o  (s_rd_status),
      .rd_line_o    (s_rd_line),
      .rd_last_o    (s_rd_last),
      .rsp_valid_o  (s_rsp_valid),
      .rsp_ready_i  (s_rsp_ready),
      .rsp_o        (s_rsp),
      .park_o       (sq_park[d]),
      .hold_o       (sq_hold[d]),
      .sense_free_i (sense_free),
      .parked_i     (parked),
      .plane_idle_i (die_plane_idle_i[d*PhysPl +: PhysPl]),
      .plane_cache_i(die_plane_cache_i[d*PhysPl +: PhysPl]),
      .plane_fail_i (die_plane_fail_i[d*PhysPl +: PhysPl]),
      .io_ready_i   (die_io_ready_i[d]),
      .m_valid_o    (sq_valid),
      .m_ready_i    (sq_ready),
      .m_op_o       (sq_op),
      .m_plane_o    (sq_plane),
      .m_block_o    (sq_block),
      .m_page_o     (sq_page),
      .m_line_o     (sq_line),
      .din_valid_o  (sq_din),
      .din_data_o   (sq_din_data),
      .dout_valid_i (sq_dout),
      // the line decoded by the die's one decoder, the controller's (flint_bbc: the fork's
      // data and status are the decode of the die's data-out whoever asked for it)
      .dout_data_i  (fork_data[d*DataBits +: DataBits]),
      .dout_status_i(fork_status[d*StW +: StW])
    );

    // The die port's maintenance side is the sequencer's alone.
    flint_die_port u_port (
      .clk_i, .rst_ni,
      .s_valid_i       (nand_valid_o[d]),
      .s_op_i          (nand_op_o[d*CmdW +: CmdW]),
      .s_data_valid_o  (s_data_valid[d]),
      .m_valid_i       (sq_valid),
      .m_ready_o       (sq_ready),
      .m_op_i          (sq_op),
      .m_plane_i       (sq_plane),
      .m_block_i       (sq_block),
      .m_page_i        (sq_page),
      .m_line_i        (sq_line),
      .m_data_valid_o  (sq_dout),
      .nand_m_valid_o  (nand_m_valid_o[d]),
      .nand_m_op_o     (nand_m_op_o[d*CmdW +: CmdW]),
      .nand_m_plane_o  (nand_m_plane_o[d*PPlBits +: PPlBits]),
      .nand_m_block_o  (nand_m_block_o[d*BlockBits +: BlockBits]),
      .nand_m_page_o   (nand_m_page_o[d*PageBits +: PageBits]),
      .nand_m_offset_o (nand_m_offset_o[d*OffBits +: OffBits]),
      .nand_m_nbytes_o (nand_m_nbytes_o[d*OffBits +: OffBits]),
      .die_data_valid_i(die_data_valid_i[d])
    );
    assign nand_din_valid_o[d] = sq_din;
    assign sq_out[d] = sq_op == CmdW'(flint_pkg::NandCmdDataOut);
`ifndef SYNTHESIS
    // The rotation's scrub read parks the controller from the cycle the sequencer takes it (its
    // plane, the source, has no program or erase then): the scrubber lets its own park go then,
    // and its queue-room check counts only the fork pages of a parking controller.
    logic rd_go;
    assign rd_go = s_req_valid && s_req_ready && s_req.op == flint_pkg::MaintReadPage;
    `FLINT_ASSERT_IMPLY(ScrubReadParksAtOnce, Mode == 0 && $past(rd_go), sq_park[d])
`endif
    assign nand_din_data_o[d*LineW +: LineW] = sq_din_data;
  end

  assign remap_valid_o = upd_valid;
  assign remap_die_o = upd.die;
  assign remap_lplane_o = upd.lplane;
  assign remap_lblock_o = upd.lblock;
  assign remap_pplane_o = upd.pplane;
  assign remap_pblock_o = upd.pblock;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) started_q <= 1'b0;
    else if (start) started_q <= 1'b1;
  end
  assign ready_o = bbc_ready && !xlat_busy && !reloc_busy && !cnt_busy;

  // The NAND sees the sequencer only in service, the loader only while loading; the refresh
  // controller never programs or erases a plane a resident burst reads (flint_refresh_die).
  `FLINT_ASSERT_IMPLY(NoServiceWhileLoading, load_busy_o, nand_valid_o == '0)
  `FLINT_ASSERT_IMPLY(NoRefreshWhileLoading, load_busy_o,
                      rf_sq_req_valid == '0 && rf_park == 1'b0)
  // A maintenance data-out reads a cache buffer the controller has let go: it has no ACTIVE
  // (the sequencer's CacheEnd went while it was parked, and it has moved nothing since).
  `FLINT_ASSERT_IMPLY(MaintOutNoActive, |(nand_m_valid_o & sq_out), !act_valid)
endmodule
`default_nettype wire
