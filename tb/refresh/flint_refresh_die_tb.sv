// Test wrapper: one die's phantom-plane refresh controller (flint_refresh_die) on that die's
// maintenance sequencer behind its flint_die_port, as flint_top wires a die (the loader's port
// of flint_maint_arb unused, so the controller is the sequencer's one client; the port's read
// side idle: no BBC here). The bench (tb/refresh/refresh_die_tb.hpp) attaches the NAND die model
// to the maintenance port (nand_m_*, din, data-out returns), answers the relocation-table and
// read-counter commands with their C++ models, and plays the burst-buffer controller. The park
// the bench sees is the controller's or the sequencer's (flint_top ORs them the same way).
`default_nettype none
module flint_refresh_die_tb #(
  parameter int unsigned Mode      = 0,
  parameter int unsigned IdleWait  = 16,
  parameter int unsigned StealPace = 0,
  // do not override
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth,
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned RcW       = flint_pkg::RelocCmdWidth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     enable_i,
  input  logic [BlockBits:0]       live_blocks_i,
  // the burst-buffer controller
  input  logic                     act_new_i,
  input  logic                     act_change_i,
  input  logic [BlockBits-1:0]     act_lblock_i,
  input  logic [PageBits-1:0]      act_page_i,
  input  logic                     fork_valid_i,
  input  logic [LPlBits-1:0]       fork_lplane_i,
  input  logic [LineBits-1:0]      fork_line_i,
  input  logic [StW-1:0]           fork_status_i,
  input  logic [DataBits-1:0]      fork_data_i,
  input  logic                     bbc_empty_i,
  input  logic                     parked_i,
  input  logic [PhysPl-1:0]        res_planes_i,
  output logic                     park_o,
  // relocation table commands
  output logic                     rc_valid_o,
  input  logic                     rc_ready_i,
  output logic [RcW-1:0]           rc_op_o,
  output logic [PPlBits-1:0]       rc_plane_o,
  output logic [BlockBits-1:0]     rc_block_o,
  input  logic                     rc_rsp_valid_i,
  input  flint_pkg::ftl_status_e   rc_rsp_status_i,
  input  flint_pkg::blk_state_e    rc_rsp_state_i,
  input  logic [PPlBits-1:0]       rc_rsp_plane_i,
  input  logic [BlockBits-1:0]     rc_rsp_block_i,
  input  logic [LPlBits-1:0]       rc_rsp_lplane_i,
  input  logic [BlockBits-1:0]     rc_rsp_lblock_i,
  // read-counter resets
  output logic                     cc_valid_o,
  input  logic                     cc_ready_i,
  output logic [PPlBits-1:0]       cc_plane_o,
  output logic [BlockBits-1:0]     cc_block_o,
  input  logic                     cc_rsp_valid_i,
  // the stripe table's update
  output logic                     upd_valid_o,
  output logic [LPlBits-1:0]       upd_lplane_o,
  output logic [BlockBits-1:0]     upd_lblock_o,
  output logic [PPlBits-1:0]       upd_pplane_o,
  output logic [BlockBits-1:0]     upd_pblock_o,
  // trip events
  input  logic                     evt_valid_i,
  input  logic [PPlBits-1:0]       evt_plane_i,
  input  logic [BlockBits-1:0]     evt_block_i,
  input  logic                     evt_limit_i,
  // status
  output logic [PPlBits-1:0]       phantom_o,
  output logic [PPlBits-1:0]       source_o,
  output logic [3:0]               phase_o,
  output logic [31:0]              rotations_o,
  output logic [31:0]              forked_o,
  output logic [31:0]              scrubbed_o,
  output logic [31:0]              programmed_o,
  output logic [31:0]              erased_o,
  output logic [31:0]              dropped_o,
  output logic [31:0]              due_o,
  output logic [31:0]              retired_prog_o,
  output logic [31:0]              retired_erase_o,
  output logic                     err_o,
  output logic [2:0]               err_code_o,
  // the die
  input  logic [PhysPl-1:0]        die_plane_idle_i,
  input  logic [PhysPl-1:0]        die_plane_cache_i,
  input  logic [PhysPl-1:0]        die_plane_fail_i,
  input  logic                     die_io_ready_i,
  output logic                     nand_m_valid_o,
  output logic [CmdW-1:0]          nand_m_op_o,
  output logic [PPlBits-1:0]       nand_m_plane_o,
  output logic [BlockBits-1:0]     nand_m_block_o,
  output logic [PageBits-1:0]      nand_m_page_o,
  output logic [OffBits-1:0]       nand_m_offset_o,
  output logic [OffBits-1:0]       nand_m_nbytes_o,
  output logic                     nand_din_valid_o,
  output logic [LineW-1:0]         nand_din_data_o,
  input  logic                     die_data_valid_i,
  input  logic [LineW-1:0]         die_data_i
);
  // The controller and its sequencer.
  logic rf_park, sq_park;
  logic mreq_valid, mreq_ready, mwr_valid, mwr_ready, mwr_poison;
  flint_pkg::maint_req_t mreq;
  logic [DataBits-1:0] mwr_data, mrd_data;
  logic mrd_valid, mrd_ready, mrd_last, mrsp_valid, mrsp_ready;
  flint_pkg::status_e mrd_status;
  logic [LineBits-1:0] mrd_line;
  flint_pkg::maint_rsp_t mrsp;
  logic unused_rc_rsp_ready, unused_sn_valid, unused_alarm, unused_evt_ready;
  logic [31:0] unused_poisoned, unused_limit;
  // The die's struct buses (flint_cfg_pkg), kept field by field on this wrapper's ports: the
  // bench (refresh_die_tb.hpp) drives and reads each field by name.
  flint_cfg_pkg::rc_cmd_t rc;
  flint_cfg_pkg::rc_rsp_t rc_rsp;
  flint_cfg_pkg::pblk_t cc, unused_sn;
  flint_cfg_pkg::upd_t upd;
  flint_cfg_pkg::evt_t evt;
  assign rc_op_o = rc.op;
  assign rc_plane_o = rc.plane;
  assign rc_block_o = rc.block;
  assign rc_rsp.status = rc_rsp_status_i;
  assign rc_rsp.state = rc_rsp_state_i;
  assign rc_rsp.plane = rc_rsp_plane_i;
  assign rc_rsp.block = rc_rsp_block_i;
  assign rc_rsp.lplane = rc_rsp_lplane_i;
  assign rc_rsp.lblock = rc_rsp_lblock_i;
  assign cc_plane_o = cc.plane;
  assign cc_block_o = cc.block;
  assign upd_lplane_o = upd.lplane;
  assign upd_lblock_o = upd.lblock;
  assign upd_pplane_o = upd.pplane;
  assign upd_pblock_o = upd.pblock;
  assign evt.plane = evt_plane_i;
  assign evt.block = evt_block_i;
  assign evt.limit = evt_limit_i;
  flint_refresh_die #(
    .Mode(Mode), .IdleWait(IdleWait), .StealPace(StealPace)
  ) u_die (
    .clk_i, .rst_ni, .enable_i, .live_blocks_i,
    .act_new_i, .act_change_i, .act_lblock_i, .act_page_i,
    .fork_valid_i, .fork_lplane_i, .fork_line_i, .fork_status_i, .fork_data_i,
    .bbc_empty_i, .sense_free_i(parked_i), .parked_i, .res_planes_i, .park_o(rf_park),
    .mreq_valid_o(mreq_valid), .mreq_ready_i(mreq_ready), .mreq_o(mreq),
    .mwr_valid_o(mwr_valid), .mwr_ready_i(mwr_ready), .mwr_data_o(mwr_data),
    .mwr_poison_o(mwr_poison),
    .mrd_valid_i(mrd_valid), .mrd_ready_o(mrd_ready), .mrd_data_i(mrd_data),
    .mrd_status_i(mrd_status), .mrd_line_i(mrd_line), .mrd_last_i(mrd_last),
    .mrsp_valid_i(mrsp_valid), .mrsp_ready_o(mrsp_ready), .mrsp_i(mrsp),
    .rc_valid_o, .rc_ready_i, .rc_o(rc), .rc_rsp_valid_i, .rc_rsp_ready_o(unused_rc_rsp_ready),
    .rc_rsp_i(rc_rsp), .cc_valid_o, .cc_ready_i, .cc_o(cc), .cc_rsp_valid_i,
    .upd_valid_o, .upd_o(upd), .sn_valid_o(unused_sn_valid), .sn_o(unused_sn),
    .evt_valid_i, .evt_ready_o(unused_evt_ready), .evt_i(evt),
    .phantom_o, .source_o, .phase_o, .rotations_o, .forked_o, .scrubbed_o, .programmed_o,
    .erased_o, .dropped_o, .poisoned_o(unused_poisoned), .due_o, .limit_o(unused_limit),
    .retired_prog_o, .retired_erase_o, .alarm_o(unused_alarm), .err_o, .err_code_o);
  // The bench's controller knows one park, the old contract (flint_bbc's is finer): the shared
  // wrapper's park_o is the sequencer's park or hold (tb/nand/flint_maint_seq_tb.sv). The early
  // read (sense_free before parked) is exercised in tb/top.
  assign park_o = rf_park || sq_park;

  // The sequencer behind its die port, as test_maint_seq runs it (tb/nand/flint_maint_seq_tb.sv).
  flint_maint_seq_tb u_maint (
    .clk_i, .rst_ni,
    .req_valid_i(mreq_valid), .req_ready_o(mreq_ready), .req_i(mreq),
    .wr_valid_i(mwr_valid), .wr_ready_o(mwr_ready), .wr_data_i(mwr_data),
    .wr_poison_i(mwr_poison),
    .rd_valid_o(mrd_valid), .rd_ready_i(mrd_ready), .rd_data_o(mrd_data),
    .rd_status_o(mrd_status), .rd_line_o(mrd_line), .rd_last_o(mrd_last),
    .rsp_valid_o(mrsp_valid), .rsp_ready_i(mrsp_ready), .rsp_o(mrsp),
    .park_o(sq_park), .parked_i,
    .die_plane_idle_i, .die_plane_cache_i, .die_plane_fail_i, .die_io_ready_i,
    .nand_m_valid_o, .nand_m_op_o, .nand_m_plane_o, .nand_m_block_o, .nand_m_page_o,
    .nand_m_offset_o, .nand_m_nbytes_o, .nand_din_valid_o, .nand_din_data_o,
    .die_data_valid_i, .die_data_i);
  logic unused_tb;
  assign unused_tb = ^{unused_rc_rsp_ready, unused_evt_ready, unused_sn_valid, unused_alarm,
                       unused_sn, unused_poisoned, unused_limit};
endmodule
`default_nettype wire
