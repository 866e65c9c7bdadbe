// Test wrapper: one die's in-place refresh (flint_refresh_inplace_die, the paper's baselines) on
// that die's maintenance sequencer behind its flint_die_port (tb/nand/flint_maint_seq_tb.sv), as
// flint_top wires a die in Mode 1 or 3 (the loader's port of flint_maint_arb unused). The bench
// (tb/refresh/inplace_die_tb.hpp) attaches the NAND die model to the maintenance port (nand_m_*,
// din, data-out returns), answers the read-counter resets, drives the trip events and plays the
// burst-buffer controller's park. The transactions between the die and its sequencer come out as
// monitor ports (mon_*), for the bench to compare with the model; park_o is the die's park or the
// sequencer's (flint_top ORs them the same way), ip_park_o the die's alone.
`default_nettype none
module flint_refresh_inplace_die_tb #(
  // do not override
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     enable_i,
  // the burst-buffer controller's park
  input  logic                     parked_i,
  output logic                     park_o,
  output logic                     ip_park_o,
  // read-counter resets
  output logic                     cc_valid_o,
  input  logic                     cc_ready_i,
  output logic [PPlBits-1:0]       cc_plane_o,
  output logic [BlockBits-1:0]     cc_block_o,
  input  logic                     cc_rsp_valid_i,
  output logic                     sn_valid_o,
  // trip events
  input  logic                     evt_valid_i,
  input  logic [PPlBits-1:0]       evt_plane_i,
  input  logic [BlockBits-1:0]     evt_block_i,
  input  logic                     evt_limit_i,
  // the die's transactions with its sequencer (monitor)
  output logic                     mon_req_go_o,
  output flint_pkg::maint_req_t    mon_req_o,
  output logic                     mon_wr_go_o,
  output logic [DataBits-1:0]      mon_wr_data_o,
  output logic                     mon_wr_poison_o,
  output logic                     mon_rd_go_o,
  output logic [DataBits-1:0]      mon_rd_data_o,
  output flint_pkg::status_e       mon_rd_status_o,
  output logic [LineBits-1:0]      mon_rd_line_o,
  output logic                     mon_rsp_go_o,
  output flint_pkg::maint_rsp_t    mon_rsp_o,
  // status
  output logic [3:0]               phase_o,
  output logic [31:0]              refreshed_o,
  output logic [31:0]              read_out_o,
  output logic [31:0]              programmed_o,
  output logic [31:0]              erased_o,
  output logic [31:0]              poisoned_o,
  output logic [31:0]              due_o,
  output logic [31:0]              limit_o,
  output logic [31:0]              pending_o,
  output logic                     alarm_o,
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
  logic sq_park;
  logic mreq_valid, mreq_ready, mwr_valid, mwr_ready, mwr_poison;
  flint_pkg::maint_req_t mreq;
  logic [DataBits-1:0] mwr_data, mrd_data;
  logic mrd_valid, mrd_ready, mrd_last, mrsp_valid, mrsp_ready;
  flint_pkg::status_e mrd_status;
  logic [LineBits-1:0] mrd_line;
  flint_pkg::maint_rsp_t mrsp;
  logic [PPlBits-1:0] unused_plane;
  // The die's struct buses (flint_cfg_pkg), kept field by field on this wrapper's ports.
  flint_cfg_pkg::pblk_t cc, unused_sn;
  flint_cfg_pkg::evt_t evt;
  assign cc_plane_o = cc.plane;
  assign cc_block_o = cc.block;
  assign evt.plane = evt_plane_i;
  assign evt.block = evt_block_i;
  assign evt.limit = evt_limit_i;
  flint_refresh_inplace_die u_die (
    .clk_i, .rst_ni, .enable_i, .parked_i, .park_o(ip_park_o),
    .mreq_valid_o(mreq_valid), .mreq_ready_i(mreq_ready), .mreq_o(mreq),
    .mwr_valid_o(mwr_valid), .mwr_ready_i(mwr_ready), .mwr_data_o(mwr_data),
    .mwr_poison_o(mwr_poison),
    .mrd_valid_i(mrd_valid), .mrd_ready_o(mrd_ready), .mrd_data_i(mrd_data),
    .mrd_status_i(mrd_status), .mrd_line_i(mrd_line), .mrd_last_i(mrd_last),
    .mrsp_valid_i(mrsp_valid), .mrsp_ready_o(mrsp_ready), .mrsp_i(mrsp),
    .cc_valid_o, .cc_ready_i, .cc_o(cc), .cc_rsp_valid_i,
    .sn_valid_o, .sn_o(unused_sn), .evt_valid_i, .evt_i(evt),
    .plane_o(unused_plane), .phase_o, .refreshed_o, .read_out_o, .programmed_o, .erased_o,
    .poisoned_o, .due_o, .limit_o, .pending_o, .alarm_o, .err_o, .err_code_o);
  assign park_o = ip_park_o || sq_park;

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

  // The transfers of the die's four handshakes with the sequencer.
  assign mon_req_go_o = mreq_valid && mreq_ready;
  assign mon_req_o = mreq;
  assign mon_wr_go_o = mwr_valid && mwr_ready;
  assign mon_wr_data_o = mwr_data;
  assign mon_wr_poison_o = mwr_poison;
  assign mon_rd_go_o = mrd_valid && mrd_ready;
  assign mon_rd_data_o = mrd_data;
  assign mon_rd_status_o = mrd_status;
  assign mon_rd_line_o = mrd_line;
  assign mon_rsp_go_o = mrsp_valid && mrsp_ready;
  assign mon_rsp_o = mrsp;
  logic unused_tb;
  assign unused_tb = ^{unused_sn, unused_plane, mrd_last};
endmodule
`default_nettype wire
