// One NAND die's two command ports (docs/top.md, "The NAND port"): the read port, driven by the
// burst-buffer controller's sequencer alone, and the maintenance port of model load and refresh.
//
// Why two: at the full read rate the sequencer issues a command every cycle (a line's data-out a
// cycle at small, a cache move between bursts), so a shared port would make every phantom
// program wait for, or steal, a read slot. The maintenance port is the phantom plane's own
// command path, as its data-in is (din_*; docs/refresh.md, "The phantom's write path"). It
// carries Program and Erase, and the refresh controller's single-plane page reads (Read and
// CacheEnd of one page, DataOut of one line), which it issues only while the controller has let
// go of the buffers they use (its page buffers for the Read, its cache buffers for the CacheEnd
// and the DataOuts: flint_bbc's park). The die I/O stays one: one data-out in flight a die,
// whoever issued it, and a line returns to the side that asked for it.
// Port contract with the die (tb: NandDie): the read port's command of a cycle is applied before
// the maintenance port's; a Program in cycle t sees the data-in beats of the cycles before t.
`default_nettype none
`include "flint_assert.svh"
module flint_die_port #(
  // do not override
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the sequencer's commands (they go to the read port as they are)
  input  logic                 s_valid_i,
  input  logic [CmdW-1:0]      s_op_i,
  output logic                 s_data_valid_o,
  // maintenance
  input  logic                 m_valid_i,
  output logic                 m_ready_o,
  input  logic [CmdW-1:0]      m_op_i,
  input  logic [PPlBits-1:0]   m_plane_i,
  input  logic [BlockBits-1:0] m_block_i,
  input  logic [PageBits-1:0]  m_page_i,
  input  logic [LineBits-1:0]  m_line_i,
  output logic                 m_data_valid_o,
  // the die's maintenance port
  output logic                 nand_m_valid_o,
  output logic [CmdW-1:0]      nand_m_op_o,
  output logic [PPlBits-1:0]   nand_m_plane_o,
  output logic [BlockBits-1:0] nand_m_block_o,
  output logic [PageBits-1:0]  nand_m_page_o,
  output logic [OffBits-1:0]   nand_m_offset_o,
  output logic [OffBits-1:0]   nand_m_nbytes_o,
  input  logic                 die_data_valid_i
);
  localparam logic [CmdW-1:0] OpOut = CmdW'(flint_pkg::NandCmdDataOut);
  logic s_out_q, m_out_q;  // a data-out of each side is in flight
  logic m_is_out;
  assign m_is_out = m_op_i == OpOut;
  // A maintenance data-out waits for the one in flight (the next may go as its data returns).
  assign m_ready_o = !(m_is_out && (s_out_q || m_out_q) && !die_data_valid_i);

  assign nand_m_valid_o = m_valid_i && m_ready_o;
  assign nand_m_op_o = m_op_i;
  assign nand_m_plane_o = m_plane_i;
  assign nand_m_block_o = m_block_i;
  assign nand_m_page_o = m_page_i;
  assign nand_m_offset_o = OffBits'(32'(m_line_i) * flint_cfg_pkg::ClImageBytes);
  assign nand_m_nbytes_o = OffBits'(flint_cfg_pkg::ClImageBytes);
  assign s_data_valid_o = die_data_valid_i && s_out_q;
  assign m_data_valid_o = die_data_valid_i && m_out_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_out_q <= 1'b0;
      m_out_q <= 1'b0;
    end else begin
      s_out_q <= (s_out_q && !die_data_valid_i) || (s_valid_i && s_op_i == OpOut);
      m_out_q <= (m_out_q && !die_data_valid_i) || (nand_m_valid_o && m_is_out);
    end
  end

  // One data-out in flight a die, whoever issued it; data only when asked for; a sequencer's
  // data-out never meets a maintenance one in the same cycle.
  `FLINT_ASSERT(OneDataOut, !(s_out_q && m_out_q))
  `FLINT_ASSERT_IMPLY(SeqOutAlone, s_valid_i && s_op_i == OpOut,
                      (!m_out_q || die_data_valid_i) && !(nand_m_valid_o && m_is_out))
  `FLINT_ASSERT_IMPLY(DataOnlyWhenAsked, die_data_valid_i, s_out_q || m_out_q)
endmodule
`default_nettype wire
