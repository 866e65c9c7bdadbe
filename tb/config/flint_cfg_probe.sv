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
  output logic [63:0] rotation_step_cycles_o
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
endmodule
`default_nettype wire
