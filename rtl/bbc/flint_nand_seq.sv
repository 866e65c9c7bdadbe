// NAND command sequencer of one die (DESIGN.md section 3; docs/bbc.md): the only block that
// drives the die's command port. It takes the BBC's burst commands (multi-plane Read, CacheRead,
// CacheEnd, each plane with its own physical block, one page) and the server's cache-line
// data-outs, and issues each only when the die can take it:
//   Read       when every plane's array is idle (die_array_ready_i);
//   CacheRead  and CacheEnd also need the die I/O idle and no data-out of this sequencer in
//              flight (they overwrite the cache buffers being read out);
//   DataOut    when the I/O is idle and the cache buffers hold a readable page (die_io_ready_i,
//              die_cache_ready_i), one in flight: the line's image comes back on die_data_*,
//              and the next may be issued in that cycle.
// A burst command waiting for the array does not hold back data-outs of the page being served
// (a Read senses into the page buffers while the cache buffers drain: the lookahead).
// The die model behind the port (tb: NandDie) refuses any illegal command loudly.
`default_nettype none
`include "flint_assert.svh"
module flint_nand_seq #(
  parameter int unsigned Planes       = flint_cfg_pkg::Planes,
  parameter int unsigned PhysPlanes   = flint_cfg_pkg::PhysPlanes,
  parameter int unsigned Blocks       = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages        = flint_cfg_pkg::Pages,
  parameter int unsigned ClPerPage    = flint_cfg_pkg::ClPerPage,
  parameter int unsigned ClImageBytes = flint_cfg_pkg::ClImageBytes,
  parameter int unsigned TagBits      = flint_cfg_pkg::ReqIdBits,  // echoed with a line's data
  // do not override
  localparam int unsigned PlaneBits  = (PhysPlanes > 1) ? $clog2(PhysPlanes) : 1,
  localparam int unsigned BlockBits  = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits   = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned LineBits   = (ClPerPage > 1) ? $clog2(ClPerPage) : 1,
  localparam int unsigned OffsetBits = $clog2(ClPerPage * ClImageBytes + 1),
  localparam int unsigned LineW      = 8 * ClImageBytes
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // burst commands: op is Read, CacheRead or CacheEnd; plane p of the stripe reads
  // bcmd_blocks_i[p*BlockBits +: BlockBits] on physical plane bcmd_planes_i[p*PlaneBits +: ..]
  input  logic                        bcmd_valid_i,
  output logic                        bcmd_ready_o,
  output logic                        bcmd_can_o,   // bcmd_op_i would go now (not of valid)
  input  flint_pkg::nand_cmd_e        bcmd_op_i,
  input  logic [PageBits-1:0]         bcmd_page_i,
  input  logic [Planes*PlaneBits-1:0] bcmd_planes_i,
  input  logic [Planes*BlockBits-1:0] bcmd_blocks_i,
  // line data-outs: physical plane and line of the cache buffer, a tag echoed with the data
  input  logic                        line_valid_i,
  output logic                        line_ready_o,
  input  logic [PlaneBits-1:0]        line_plane_i,
  input  logic [LineBits-1:0]         line_idx_i,
  input  logic [TagBits-1:0]          line_tag_i,
  output logic                        line_rsp_valid_o,
  output logic [TagBits-1:0]          line_rsp_tag_o,
  output logic [LineW-1:0]            line_rsp_data_o,
  // the die
  input  logic                        die_array_ready_i,
  input  logic                        die_io_ready_i,
  input  logic                        die_cache_ready_i,
  output logic                        nand_valid_o,
  output flint_pkg::nand_cmd_e        nand_op_o,
  output logic [PageBits-1:0]         nand_page_o,
  output logic [Planes*PlaneBits-1:0] nand_planes_o,
  output logic [Planes*BlockBits-1:0] nand_blocks_o,
  output logic [PlaneBits-1:0]        nand_plane_o,
  output logic [OffsetBits-1:0]       nand_offset_o,
  output logic [OffsetBits-1:0]       nand_nbytes_o,
  input  logic                        die_data_valid_i,
  input  logic [LineW-1:0]            die_data_i
);
  logic out_q, out_d;  // a data-out is in flight
  logic [TagBits-1:0] tag_q, tag_d;

  // The next data-out may go in the cycle the previous one's data comes back.
  logic out_free;
  assign out_free = !out_q || die_data_valid_i;
  logic bcmd_needs_io, bcmd_go, line_go;
  assign bcmd_needs_io = bcmd_op_i != flint_pkg::NandCmdRead;
  // The BBC commands every die in the same cycle, so it asks them all first.
  assign bcmd_can_o = die_array_ready_i &&
                      (!bcmd_needs_io || (die_io_ready_i && out_free && !line_valid_i));
  assign bcmd_go = bcmd_valid_i && bcmd_can_o;
  // A cache move waits for the lines still asked for; a Read does not block them.
  assign line_go = line_valid_i && !bcmd_go && die_io_ready_i && die_cache_ready_i && out_free;
  assign bcmd_ready_o = bcmd_go;
  assign line_ready_o = line_go;

  always_comb begin
    nand_valid_o = bcmd_go || line_go;
    nand_op_o = bcmd_go ? bcmd_op_i : flint_pkg::NandCmdDataOut;
    nand_page_o = bcmd_page_i;
    nand_planes_o = bcmd_planes_i;
    nand_blocks_o = bcmd_blocks_i;
    nand_plane_o = line_plane_i;
    nand_offset_o = OffsetBits'(32'(line_idx_i) * ClImageBytes);
    nand_nbytes_o = OffsetBits'(ClImageBytes);
    out_d = (out_q && !die_data_valid_i) || line_go;
    tag_d = line_go ? line_tag_i : tag_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q <= 1'b0;
      tag_q <= '0;
    end else begin
      out_q <= out_d;
      tag_q <= tag_d;
    end
  end
  assign line_rsp_valid_o = out_q && die_data_valid_i;
  assign line_rsp_tag_o = tag_q;
  assign line_rsp_data_o = die_data_i;

  // --- invariants ------------------------------------------------------------------------------
  `FLINT_ASSERT_IMPLY(DataOnlyWhenAsked, die_data_valid_i, out_q)
  `FLINT_ASSERT_IMPLY(NeverBusyArray, bcmd_go, die_array_ready_i)
  `FLINT_ASSERT_IMPLY(NoMoveUnderReadout, bcmd_go && bcmd_needs_io, out_free && die_io_ready_i)
  `FLINT_ASSERT(OneCommandACycle, !(bcmd_go && line_go))
  `FLINT_ASSERT_IMPLY(BurstOpLegal, bcmd_valid_i,
                      bcmd_op_i == flint_pkg::NandCmdRead ||
                      bcmd_op_i == flint_pkg::NandCmdCacheRead ||
                      bcmd_op_i == flint_pkg::NandCmdCacheEnd)

  // --- functional coverage (make coverage) -----------------------------------------------------
  // Each command kind issued.
  `FLINT_COVER(c_cmd_read, bcmd_go && bcmd_op_i == flint_pkg::NandCmdRead)
  `FLINT_COVER(c_cmd_cache_read, bcmd_go && bcmd_op_i == flint_pkg::NandCmdCacheRead)
  `FLINT_COVER(c_cmd_cache_end, bcmd_go && bcmd_op_i == flint_pkg::NandCmdCacheEnd)
  `FLINT_COVER(c_cmd_data_out, line_go)
  // A data-out issued in the cycle the previous one's data comes back (back to back).
  `FLINT_COVER(c_data_out_back_to_back, line_go && out_q && die_data_valid_i)
  // Waits: a burst command on a busy array; a cache move behind lines still asked for; a Read
  // going out while lines wait (the lookahead); a line waiting for the die's I/O.
  `FLINT_COVER(c_bcmd_waits_array, bcmd_valid_i && !die_array_ready_i)
  `FLINT_COVER(c_move_waits_lines, bcmd_valid_i && bcmd_needs_io && die_array_ready_i &&
                                   line_valid_i)
  `FLINT_COVER(c_read_beside_lines, bcmd_go && !bcmd_needs_io && line_valid_i)
  `FLINT_COVER(c_line_waits_io, line_valid_i && !bcmd_go && !die_io_ready_i)
endmodule
`default_nettype wire
