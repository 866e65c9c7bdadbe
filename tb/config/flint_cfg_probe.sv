// Test-only probe: publishes flint_cfg_pkg constants as outputs, so a test can check that the SV
// package and the C++ header generated from one config agree.
`default_nettype none
module flint_cfg_probe (
  output logic [31:0] dies_o,
  output logic [31:0] planes_o,
  output logic [31:0] phys_planes_o,
  output logic [31:0] blocks_o,
  output logic [31:0] pages_o,
  output logic [31:0] page_bytes_o,
  output logic [31:0] cl_bytes_o,
  output logic [31:0] lanes_o,
  output logic [31:0] t_read_cycles_o,
  output logic [31:0] t_erase_cycles_o,
  output logic [31:0] burst_bytes_o,
  output logic [31:0] bursts_per_stack_o,
  output logic [31:0] drain_cycles_o,
  output logic [31:0] addr_bits_o,
  output logic [31:0] burst_idx_bits_o,
  output logic [31:0] disturb_limit_o,
  output logic [63:0] stack_bytes_o,
  output logic [63:0] rotation_step_cycles_o,
  // the refresh buses' structs, each built field by field from these fields (config_test checks
  // the C++ mirrors of model/refresh/refresh_bus.hpp against them): a die's and the stack's
  input  logic [flint_cfg_pkg::DieBits-1:0]       die_i,
  input  logic [flint_cfg_pkg::RelocCmdBits-1:0]  op_i,
  input  logic [flint_cfg_pkg::FtlStatusBits-1:0] status_i,
  input  logic [flint_cfg_pkg::BlkStateBits-1:0]  state_i,
  input  logic [flint_cfg_pkg::PhysPlaneBits-1:0] plane_i,
  input  logic [flint_cfg_pkg::BlockBits-1:0]     block_i,
  input  logic [flint_cfg_pkg::PlaneBits-1:0]     lplane_i,
  input  logic [flint_cfg_pkg::BlockBits-1:0]     lblock_i,
  input  logic                                    limit_i,
  output flint_cfg_pkg::rc_cmd_t                  rc_o,
  output flint_cfg_pkg::stack_rc_cmd_t            stack_rc_o,
  output flint_cfg_pkg::rc_rsp_t                  rc_rsp_o,
  output flint_cfg_pkg::pblk_t                    pblk_o,
  output flint_cfg_pkg::stack_pblk_t              stack_pblk_o,
  output flint_cfg_pkg::evt_t                     evt_o,
  output flint_cfg_pkg::stack_evt_t               stack_evt_o,
  output flint_cfg_pkg::upd_t                     upd_o,
  output flint_cfg_pkg::stack_upd_t               stack_upd_o,
  output logic [31:0]                             widths_o [9]
);
  assign dies_o = flint_cfg_pkg::Dies;
  assign planes_o = flint_cfg_pkg::Planes;
  assign phys_planes_o = flint_cfg_pkg::PhysPlanes;
  assign blocks_o = flint_cfg_pkg::Blocks;
  assign pages_o = flint_cfg_pkg::Pages;
  assign page_bytes_o = flint_cfg_pkg::PageBytes;
  assign cl_bytes_o = flint_cfg_pkg::ClBytes;
  assign lanes_o = flint_cfg_pkg::Lanes;
  assign t_read_cycles_o = flint_cfg_pkg::TReadCycles;
  assign t_erase_cycles_o = flint_cfg_pkg::TEraseCycles;
  assign burst_bytes_o = flint_cfg_pkg::BurstBytes;
  assign bursts_per_stack_o = flint_cfg_pkg::BurstsPerStack;
  assign drain_cycles_o = flint_cfg_pkg::DrainCycles;
  assign addr_bits_o = flint_cfg_pkg::AddrBits;
  assign burst_idx_bits_o = flint_cfg_pkg::BurstIdxBits;
  assign disturb_limit_o = flint_cfg_pkg::DisturbLimit;
  assign stack_bytes_o = 64'(flint_cfg_pkg::StackBytes);
  assign rotation_step_cycles_o = 64'(flint_cfg_pkg::RotationStepCycles);

  assign rc_o.op = op_i;
  assign rc_o.plane = plane_i;
  assign rc_o.block = block_i;
  assign stack_rc_o.die = die_i;
  assign stack_rc_o.op = op_i;
  assign stack_rc_o.plane = plane_i;
  assign stack_rc_o.block = block_i;
  assign rc_rsp_o.status = status_i;
  assign rc_rsp_o.state = state_i;
  assign rc_rsp_o.plane = plane_i;
  assign rc_rsp_o.block = block_i;
  assign rc_rsp_o.lplane = lplane_i;
  assign rc_rsp_o.lblock = lblock_i;
  assign pblk_o.plane = plane_i;
  assign pblk_o.block = block_i;
  assign stack_pblk_o.die = die_i;
  assign stack_pblk_o.plane = plane_i;
  assign stack_pblk_o.block = block_i;
  assign evt_o.plane = plane_i;
  assign evt_o.block = block_i;
  assign evt_o.limit = limit_i;
  assign stack_evt_o.die = die_i;
  assign stack_evt_o.plane = plane_i;
  assign stack_evt_o.block = block_i;
  assign stack_evt_o.limit = limit_i;
  assign upd_o.lplane = lplane_i;
  assign upd_o.lblock = lblock_i;
  assign upd_o.pplane = plane_i;
  assign upd_o.pblock = block_i;
  assign stack_upd_o.die = die_i;
  assign stack_upd_o.lplane = lplane_i;
  assign stack_upd_o.lblock = lblock_i;
  assign stack_upd_o.pplane = plane_i;
  assign stack_upd_o.pblock = block_i;
  // Each struct's published ...Width, in the order of the outputs above.
  assign widths_o[0] = flint_cfg_pkg::RcCmdWidth;
  assign widths_o[1] = flint_cfg_pkg::StackRcCmdWidth;
  assign widths_o[2] = flint_cfg_pkg::RcRspWidth;
  assign widths_o[3] = flint_cfg_pkg::PblkWidth;
  assign widths_o[4] = flint_cfg_pkg::StackPblkWidth;
  assign widths_o[5] = flint_cfg_pkg::EvtWidth;
  assign widths_o[6] = flint_cfg_pkg::StackEvtWidth;
  assign widths_o[7] = flint_cfg_pkg::UpdWidth;
  assign widths_o[8] = flint_cfg_pkg::StackUpdWidth;
endmodule
`default_nettype wire
