// Phantom-plane refresh of a stack (paper section 4.2; docs/refresh.md): one flint_refresh_die a
// die, sharing the relocation table's command port, the read counters' command port and the
// stripe table's update port; the read counters' trip events go to their die. The dies rotate
// independently; a park request of any die parks the burst-buffer controller.
// NAND access: every die (phantom rotation or in-place) sends its reads, programs and erases as
// transactions to its die's maintenance sequencer (sq_*, through flint_top's flint_maint_arb a
// die); none commands a die itself.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh #(
  // 0 FLINT phantom rotation, 1 in-place distributed, 2 none, 3 in-place burst (the in-place
  // modes differ only in the read counters' trip points, set by flint_top)
  parameter int unsigned Mode     = 0,
  parameter int unsigned IdleWait = flint_cfg_pkg::BurstPeriodCycles,
  parameter int unsigned StealPace = 0,  // flint_refresh_die: 0 scrub only when idle
  // do not override
  localparam int unsigned Dies      = flint_cfg_pkg::Dies,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned DieBits   = flint_cfg_pkg::DieBits,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned RcCmdW    = flint_cfg_pkg::RcCmdWidth,
  localparam int unsigned PblkW     = flint_cfg_pkg::PblkWidth,
  localparam int unsigned UpdW      = flint_cfg_pkg::UpdWidth,
  localparam int unsigned ReqW      = flint_pkg::MaintReqWidth,
  localparam int unsigned RspW      = flint_pkg::MaintRspWidth
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      enable_i,
  input  logic [BlockBits:0]        live_blocks_i,
  // the burst-buffer controller
  input  logic                      act_new_i,
  input  logic                      act_change_i,
  input  logic [BlockBits-1:0]      act_lblock_i,
  input  logic [PageBits-1:0]       act_page_i,
  input  logic [Dies-1:0]           fork_valid_i,
  input  logic [Dies*LPlBits-1:0]   fork_lplane_i,
  input  logic [Dies*LineBits-1:0]  fork_line_i,
  input  logic [Dies*StW-1:0]       fork_status_i,
  input  logic [Dies*DataBits-1:0]  fork_data_i,
  input  logic                      bbc_empty_i,
  input  logic                      sense_free_i,   // its page buffers free (parking)
  input  logic                      parked_i,
  input  logic [Dies*PhysPl-1:0]    res_planes_i,
  output logic                      park_o,
  // the dies' maintenance sequencers: requests (flint_pkg::maint_req_t a die),
  // program lines, read lines (a flint_pkg::status_e a die), answers (maint_rsp_t a die)
  output logic [Dies-1:0]           sq_req_valid_o,
  input  logic [Dies-1:0]           sq_req_ready_i,
  output logic [Dies*ReqW-1:0]      sq_req_o,
  output logic [Dies-1:0]           sq_wr_valid_o,
  input  logic [Dies-1:0]           sq_wr_ready_i,
  output logic [Dies*DataBits-1:0]  sq_wr_data_o,
  output logic [Dies-1:0]           sq_wr_poison_o,
  input  logic [Dies-1:0]           sq_rd_valid_i,
  output logic [Dies-1:0]           sq_rd_ready_o,
  input  logic [Dies*DataBits-1:0]  sq_rd_data_i,
  input  logic [Dies*StW-1:0]       sq_rd_status_i,
  input  logic [Dies*LineBits-1:0]  sq_rd_line_i,
  input  logic [Dies-1:0]           sq_rd_last_i,
  input  logic [Dies-1:0]           sq_rsp_valid_i,
  output logic [Dies-1:0]           sq_rsp_ready_o,
  input  logic [Dies*RspW-1:0]      sq_rsp_i,
  // relocation table command port
  output logic                          rc_valid_o,
  input  logic                          rc_ready_i,
  output flint_cfg_pkg::stack_rc_cmd_t  rc_o,
  input  logic                          rc_rsp_valid_i,
  output logic                          rc_rsp_ready_o,
  input  flint_cfg_pkg::rc_rsp_t        rc_rsp_i,
  // read counters: command port (reset after an erase) and trip events
  output logic                          cc_valid_o,
  input  logic                          cc_ready_i,
  output flint_cfg_pkg::stack_pblk_t    cc_o,
  input  logic                          cc_rsp_valid_i,
  output logic                          cc_rsp_ready_o,
  input  logic                          evt_valid_i,
  output logic                          evt_ready_o,
  input  flint_cfg_pkg::stack_evt_t     evt_i,
  // stripe table updates and the scrubbers' senses (a flint_cfg_pkg::pblk_t a die)
  output logic                          upd_valid_o,
  output flint_cfg_pkg::stack_upd_t     upd_o,
  output logic [Dies-1:0]               sn_valid_o,
  output logic [Dies*PblkW-1:0]         sn_o,
  // status, a field a die
  output logic [Dies*PPlBits-1:0]   phantom_o,
  output logic [Dies*PPlBits-1:0]   source_o,
  output logic [Dies*4-1:0]         phase_o,
  output logic [Dies*32-1:0]        rotations_o,
  output logic [Dies*32-1:0]        forked_o,
  output logic [Dies*32-1:0]        scrubbed_o,
  output logic [Dies*32-1:0]        programmed_o,
  output logic [Dies*32-1:0]        erased_o,
  output logic [Dies*32-1:0]        dropped_o,
  output logic [Dies*32-1:0]        poisoned_o,
  output logic [Dies*32-1:0]        due_o,
  output logic [Dies*32-1:0]        limit_o,
  output logic [Dies*32-1:0]        retired_prog_o,   // blocks retired: failed program
  output logic [Dies*32-1:0]        retired_erase_o,  // blocks retired: failed erase
  output logic [Dies-1:0]           alarm_o,
  output logic [Dies-1:0]           err_o,
  output logic [Dies*3-1:0]         err_code_o
);
  logic [Dies-1:0] park, rc_req, rc_gnt, cc_req, cc_gnt, upd;
  logic [Dies-1:0] evt_to, unused_evt_ready;
  // Each die's command, counter reset and stripe update (a struct a die: no arrays of structs).
  logic [Dies*RcCmdW-1:0] rc_each;
  logic [Dies*PblkW-1:0] cc_each;
  logic [Dies*UpdW-1:0] upd_each;
  logic [Dies-1:0] unused_rc_rsp_ready;
  logic [DieBits-1:0] rc_idx, cc_idx;
  // A trip event without its die, for every die (a struct outside the generate loop: Yosys 0.23
  // resolves no field of a struct declared inside one, "Failed to resolve identifier \g_die[0]").
  flint_cfg_pkg::evt_t evt;
  assign evt.plane = evt_i.plane;
  assign evt.block = evt_i.block;
  assign evt.limit = evt_i.limit;
  logic rc_out_valid, cc_out_valid;
  // The die whose command is in flight (the table answers one at a time).
  logic rc_busy_q, cc_busy_q;
  logic [DieBits-1:0] rc_owner_q, cc_owner_q;

  for (genvar d = 0; d < Dies; d++) begin : g_die
    assign evt_to[d] = evt_valid_i && 32'(evt_i.die) == d;
    // The die's transactions on its sequencer.
    flint_pkg::maint_req_t sq_req;
    flint_pkg::maint_rsp_t sq_rsp;
    flint_pkg::status_e sq_rd_status;
    assign sq_req_o[d*ReqW +: ReqW] = sq_req;
    assign sq_rsp = sq_rsp_i[d*RspW +: RspW];
    // A line's status back to the enum by its names (no casts to an enum: STYLE.md).
    always_comb begin
      unique case (sq_rd_status_i[d*StW +: StW])
        StW'(flint_pkg::StatusCorrected):     sq_rd_status = flint_pkg::StatusCorrected;
        StW'(flint_pkg::StatusUncorrectable): sq_rd_status = flint_pkg::StatusUncorrectable;
        default:                              sq_rd_status = flint_pkg::StatusOk;
      endcase
    end
    if (Mode == 0 || Mode == 2) begin : g_flint
      flint_refresh_die #(
        .Mode     (Mode),
        .IdleWait (IdleWait),
        .StealPace(StealPace)
      ) u_die (
        .clk_i, .rst_ni,
        .enable_i,
        .live_blocks_i,
        .act_new_i,
        .act_change_i,
        .act_lblock_i,
        .act_page_i,
        .fork_valid_i  (fork_valid_i[d]),
        .fork_lplane_i (fork_lplane_i[d*LPlBits +: LPlBits]),
        .fork_line_i   (fork_line_i[d*LineBits +: LineBits]),
        .fork_status_i (fork_status_i[d*StW +: StW]),
        .fork_data_i   (fork_data_i[d*DataBits +: DataBits]),
        .bbc_empty_i,
        .sense_free_i,
        .parked_i,
        .res_planes_i  (res_planes_i[d*PhysPl +: PhysPl]),
        .park_o        (park[d]),
        .mreq_valid_o  (sq_req_valid_o[d]),
        .mreq_ready_i  (sq_req_ready_i[d]),
        .mreq_o        (sq_req),
        .mwr_valid_o   (sq_wr_valid_o[d]),
        .mwr_ready_i   (sq_wr_ready_i[d]),
        .mwr_data_o    (sq_wr_data_o[d*DataBits +: DataBits]),
        .mwr_poison_o  (sq_wr_poison_o[d]),
        .mrd_valid_i   (sq_rd_valid_i[d]),
        .mrd_ready_o   (sq_rd_ready_o[d]),
        .mrd_data_i    (sq_rd_data_i[d*DataBits +: DataBits]),
        .mrd_status_i  (sq_rd_status),
        .mrd_line_i    (sq_rd_line_i[d*LineBits +: LineBits]),
        .mrd_last_i    (sq_rd_last_i[d]),
        .mrsp_valid_i  (sq_rsp_valid_i[d]),
        .mrsp_ready_o  (sq_rsp_ready_o[d]),
        .mrsp_i        (sq_rsp),
        .rc_valid_o    (rc_req[d]),
        .rc_ready_i    (rc_gnt[d] && rc_ready_i && !rc_busy_q),
        .rc_o          (rc_each[d*RcCmdW +: RcCmdW]),
        .rc_rsp_valid_i(rc_rsp_valid_i && rc_busy_q && 32'(rc_owner_q) == d),
        .rc_rsp_ready_o(unused_rc_rsp_ready[d]),
        .rc_rsp_i,
        .cc_valid_o    (cc_req[d]),
        .cc_ready_i    (cc_gnt[d] && cc_ready_i && !cc_busy_q),
        .cc_o          (cc_each[d*PblkW +: PblkW]),
        .cc_rsp_valid_i(cc_rsp_valid_i && cc_busy_q && 32'(cc_owner_q) == d),
        .upd_valid_o   (upd[d]),
        .upd_o         (upd_each[d*UpdW +: UpdW]),
        .sn_valid_o    (sn_valid_o[d]),
        .sn_o          (sn_o[d*PblkW +: PblkW]),
        .evt_valid_i   (evt_to[d]),
        .evt_ready_o   (unused_evt_ready[d]),
        .evt_i         (evt),
        .phantom_o     (phantom_o[d*PPlBits +: PPlBits]),
        .source_o      (source_o[d*PPlBits +: PPlBits]),
        .phase_o       (phase_o[d*4 +: 4]),
        .rotations_o   (rotations_o[d*32 +: 32]),
        .forked_o      (forked_o[d*32 +: 32]),
        .scrubbed_o    (scrubbed_o[d*32 +: 32]),
        .programmed_o  (programmed_o[d*32 +: 32]),
        .erased_o      (erased_o[d*32 +: 32]),
        .dropped_o     (dropped_o[d*32 +: 32]),
        .poisoned_o    (poisoned_o[d*32 +: 32]),
        .due_o         (due_o[d*32 +: 32]),
        .limit_o       (limit_o[d*32 +: 32]),
        .retired_prog_o(retired_prog_o[d*32 +: 32]),
        .retired_erase_o(retired_erase_o[d*32 +: 32]),
        .alarm_o       (alarm_o[d]),
        .err_o         (err_o[d]),
        .err_code_o    (err_code_o[d*3 +: 3])
      );
    end else begin : g_inplace
      // In-place baselines: no relocation, no stripe update, no fork; the phantom stays spare.
      // Each holds its park around a whole block: it reads only once parked.
      logic unused_sense_free;
      assign unused_sense_free = sense_free_i;
      flint_refresh_inplace_die u_die (
        .clk_i, .rst_ni,
        .enable_i,
        .parked_i,
        .park_o        (park[d]),
        .mreq_valid_o  (sq_req_valid_o[d]),
        .mreq_ready_i  (sq_req_ready_i[d]),
        .mreq_o        (sq_req),
        .mwr_valid_o   (sq_wr_valid_o[d]),
        .mwr_ready_i   (sq_wr_ready_i[d]),
        .mwr_data_o    (sq_wr_data_o[d*DataBits +: DataBits]),
        .mwr_poison_o  (sq_wr_poison_o[d]),
        .mrd_valid_i   (sq_rd_valid_i[d]),
        .mrd_ready_o   (sq_rd_ready_o[d]),
        .mrd_data_i    (sq_rd_data_i[d*DataBits +: DataBits]),
        .mrd_status_i  (sq_rd_status),
        .mrd_line_i    (sq_rd_line_i[d*LineBits +: LineBits]),
        .mrd_last_i    (sq_rd_last_i[d]),
        .mrsp_valid_i  (sq_rsp_valid_i[d]),
        .mrsp_ready_o  (sq_rsp_ready_o[d]),
        .mrsp_i        (sq_rsp),
        .cc_valid_o    (cc_req[d]),
        .cc_ready_i    (cc_gnt[d] && cc_ready_i && !cc_busy_q),
        .cc_o          (cc_each[d*PblkW +: PblkW]),
        .cc_rsp_valid_i(cc_rsp_valid_i && cc_busy_q && 32'(cc_owner_q) == d),
        .sn_valid_o    (sn_valid_o[d]),
        .sn_o          (sn_o[d*PblkW +: PblkW]),
        .evt_valid_i   (evt_to[d]),
        .evt_i         (evt),
        .plane_o       (source_o[d*PPlBits +: PPlBits]),
        .phase_o       (phase_o[d*4 +: 4]),
        .refreshed_o   (rotations_o[d*32 +: 32]),
        .read_out_o    (scrubbed_o[d*32 +: 32]),
        .programmed_o  (programmed_o[d*32 +: 32]),
        .erased_o      (erased_o[d*32 +: 32]),
        .poisoned_o    (poisoned_o[d*32 +: 32]),
        .due_o         (due_o[d*32 +: 32]),
        .limit_o       (limit_o[d*32 +: 32]),
        .pending_o     (dropped_o[d*32 +: 32]),
        .alarm_o       (alarm_o[d]),
        .err_o         (err_o[d]),
        .err_code_o    (err_code_o[d*3 +: 3])
      );
      assign phantom_o[d*PPlBits +: PPlBits] = PPlBits'(PhysPl - 1);
      assign forked_o[d*32 +: 32] = '0;
      assign retired_prog_o[d*32 +: 32] = '0;   // in place: a failure halts the die
      assign retired_erase_o[d*32 +: 32] = '0;
      assign rc_req[d] = 1'b0;
      assign rc_each[d*RcCmdW +: RcCmdW] = '0;
      assign unused_rc_rsp_ready[d] = 1'b1;
      assign unused_evt_ready[d] = 1'b1;
      assign upd[d] = 1'b0;
      assign upd_each[d*UpdW +: UpdW] = '0;
      logic unused_inplace;
      assign unused_inplace = ^{live_blocks_i, act_new_i, act_change_i, act_lblock_i, act_page_i,
                                fork_valid_i[d], fork_lplane_i[d*LPlBits +: LPlBits],
                                fork_line_i[d*LineBits +: LineBits],
                                fork_status_i[d*StW +: StW], fork_data_i[d*DataBits +: DataBits],
                                bbc_empty_i, res_planes_i[d*PhysPl +: PhysPl], rc_rsp_i,
                                rc_gnt[d], rc_owner_q};
    end
  end
  assign park_o = |park;
  assign evt_ready_o = 1'b1;  // every die takes its events at once

  // --- relocation-table commands: round-robin, one in flight ---------------------------------
  flint_rr_arb #(.N(Dies)) u_rc_arb (
    .clk_i, .rst_ni,
    .req_i      (rc_req),
    .gnt_o      (rc_gnt),
    .out_valid_o(rc_out_valid),
    .out_ready_i(rc_ready_i && !rc_busy_q),
    .out_idx_o  (rc_idx)
  );
  assign rc_valid_o = rc_out_valid && !rc_busy_q;
  // The winner's command (its op stays raw bits: flint_top decodes it for the table).
  flint_cfg_pkg::rc_cmd_t rc_win;
  assign rc_win = rc_each[32'(rc_idx)*RcCmdW +: RcCmdW];
  assign rc_o.die = rc_idx;
  assign rc_o.op = rc_win.op;
  assign rc_o.plane = rc_win.plane;
  assign rc_o.block = rc_win.block;
  assign rc_rsp_ready_o = 1'b1;  // every die takes its answer at once

  // --- read-counter commands: the same -------------------------------------------------------
  flint_rr_arb #(.N(Dies)) u_cc_arb (
    .clk_i, .rst_ni,
    .req_i      (cc_req),
    .gnt_o      (cc_gnt),
    .out_valid_o(cc_out_valid),
    .out_ready_i(cc_ready_i && !cc_busy_q),
    .out_idx_o  (cc_idx)
  );
  assign cc_valid_o = cc_out_valid && !cc_busy_q;
  flint_cfg_pkg::pblk_t cc_win;
  assign cc_win = cc_each[32'(cc_idx)*PblkW +: PblkW];
  assign cc_o.die = cc_idx;
  assign cc_o.plane = cc_win.plane;
  assign cc_o.block = cc_win.block;
  assign cc_rsp_ready_o = 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rc_busy_q <= 1'b0;
      rc_owner_q <= '0;
      cc_busy_q <= 1'b0;
      cc_owner_q <= '0;
    end else begin
      if (rc_valid_o && rc_ready_i) begin
        rc_busy_q <= 1'b1;
        rc_owner_q <= rc_idx;
      end else if (rc_rsp_valid_i) begin
        rc_busy_q <= 1'b0;
      end
      if (cc_valid_o && cc_ready_i) begin
        cc_busy_q <= 1'b1;
        cc_owner_q <= cc_idx;
      end else if (cc_rsp_valid_i) begin
        cc_busy_q <= 1'b0;
      end
    end
  end

  // --- stripe updates: a die updates in the cycle its Commit is answered, so one at a time ----
  flint_cfg_pkg::upd_t upd_win;
  always_comb begin
    upd_valid_o = |upd;
    upd_o.die = '0;
    upd_win = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      if (upd[d]) begin
        upd_o.die = DieBits'(d);
        upd_win = upd_each[d*UpdW +: UpdW];
      end
    end
    upd_o.lplane = upd_win.lplane;
    upd_o.lblock = upd_win.lblock;
    upd_o.pplane = upd_win.pplane;
    upd_o.pblock = upd_win.pblock;
  end

  `FLINT_ASSERT(OneUpdate, $countones(upd) <= 1)
  `FLINT_ASSERT_IMPLY(AnswerHasOwner, rc_rsp_valid_i, rc_busy_q)
  `FLINT_ASSERT_IMPLY(CountAnswerHasOwner, cc_rsp_valid_i, cc_busy_q)
endmodule
`default_nettype wire
