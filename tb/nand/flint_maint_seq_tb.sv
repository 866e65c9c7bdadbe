// Test wrapper: the maintenance sequencer of one die behind that die's flint_die_port, as
// flint_top wires them (the port's read side idle: no BBC here), so the bench attaches the NAND
// die model to the same maintenance port (nand_m_*, din, data-out returns) flint_top has.
// test_maint_seq Verilates it as its top; the benches of the sequencer's clients
// (tb/refresh/flint_refresh_die_tb.sv, tb/refresh/flint_refresh_inplace_die_tb.sv) instantiate it
// under their client, so the die side is wired once.
`default_nettype none
module flint_maint_seq_tb #(
  parameter int unsigned OutDepth = 0,
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
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // the sequencer's clients
  input  logic                  req_valid_i,
  output logic                  req_ready_o,
  input  flint_pkg::maint_req_t req_i,
  input  logic                  wr_valid_i,
  output logic                  wr_ready_o,
  input  logic [DataBits-1:0]   wr_data_i,
  input  logic                  wr_poison_i,
  output logic                  rd_valid_o,
  input  logic                  rd_ready_i,
  output logic [DataBits-1:0]   rd_data_o,
  output flint_pkg::status_e    rd_status_o,
  output logic [LineBits-1:0]   rd_line_o,
  output logic                  rd_last_o,
  output logic                  rsp_valid_o,
  input  logic                  rsp_ready_i,
  output flint_pkg::maint_rsp_t rsp_o,
  output logic                  park_o,
  input  logic                  parked_i,
  // the die
  input  logic [PhysPl-1:0]     die_plane_idle_i,
  input  logic [PhysPl-1:0]     die_plane_cache_i,
  input  logic [PhysPl-1:0]     die_plane_fail_i,
  input  logic                  die_io_ready_i,
  output logic                  nand_m_valid_o,
  output logic [CmdW-1:0]       nand_m_op_o,
  output logic [PPlBits-1:0]    nand_m_plane_o,
  output logic [BlockBits-1:0]  nand_m_block_o,
  output logic [PageBits-1:0]   nand_m_page_o,
  output logic [OffBits-1:0]    nand_m_offset_o,
  output logic [OffBits-1:0]    nand_m_nbytes_o,
  output logic                  nand_din_valid_o,
  output logic [LineW-1:0]      nand_din_data_o,
  input  logic                  die_data_valid_i,
  input  logic [LineW-1:0]      die_data_i
);
  logic m_valid, m_ready, m_dout;
  // The bench's controller knows one park, the old contract (flint_bbc's is finer): its page
  // buffers count as free only once parked, and the hold of its cache buffers keeps it parked.
  logic seq_park, seq_hold;
  assign park_o = seq_park || seq_hold;
  logic [CmdW-1:0] m_op;
  logic [PPlBits-1:0] m_plane;
  logic [BlockBits-1:0] m_block;
  logic [PageBits-1:0] m_page;
  logic [LineBits-1:0] m_line;
  flint_maint_seq #(.OutDepth(OutDepth)) u_seq (
    .clk_i, .rst_ni,
    .req_valid_i, .req_ready_o, .req_i,
    .wr_valid_i, .wr_ready_o, .wr_data_i, .wr_poison_i,
    .rd_valid_o, .rd_ready_i, .rd_data_o, .rd_status_o, .rd_line_o, .rd_last_o,
    .rsp_valid_o, .rsp_ready_i, .rsp_o,
    .park_o(seq_park), .hold_o(seq_hold), .sense_free_i(parked_i), .parked_i,
    .plane_idle_i (die_plane_idle_i),
    .plane_cache_i(die_plane_cache_i),
    .plane_fail_i (die_plane_fail_i),
    .io_ready_i   (die_io_ready_i),
    .m_valid_o    (m_valid),
    .m_ready_i    (m_ready),
    .m_op_o       (m_op),
    .m_plane_o    (m_plane),
    .m_block_o    (m_block),
    .m_page_o     (m_page),
    .m_line_o     (m_line),
    .din_valid_o  (nand_din_valid_o),
    .din_data_o   (nand_din_data_o),
    .dout_valid_i (m_dout),
    .dout_data_i  (dec_data),
    .dout_status_i(flint_pkg::StatusWidth'(dec_status))
  );
  // The die's line decoder on its data-out (flint_top shares the controller's).
  localparam int unsigned Words = DataBits / 64;
  logic [DataBits-1:0] img_data, dec_data;
  logic [Words*8-1:0] img_check;
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      img_data[w*64 +: 64] = die_data_i[w*72 +: 64];
      img_check[w*8 +: 8] = die_data_i[w*72+64 +: 8];
    end
  end
  flint_pkg::status_e dec_status;
  logic [Words-1:0] unused_corr, unused_uncorr;
  flint_ecc_cl_dec #(.Words(Words)) u_dec (
    .data_i(img_data), .check_i(img_check), .data_o(dec_data), .status_o(dec_status),
    .word_corrected_o(unused_corr), .word_uncorrectable_o(unused_uncorr));
  logic unused_s_data;
  flint_die_port u_port (
    .clk_i, .rst_ni,
    .s_valid_i       (1'b0),
    .s_op_i          ('0),
    .s_data_valid_o  (unused_s_data),
    .m_valid_i       (m_valid),
    .m_ready_o       (m_ready),
    .m_op_i          (m_op),
    .m_plane_i       (m_plane),
    .m_block_i       (m_block),
    .m_page_i        (m_page),
    .m_line_i        (m_line),
    .m_data_valid_o  (m_dout),
    .nand_m_valid_o,
    .nand_m_op_o,
    .nand_m_plane_o,
    .nand_m_block_o,
    .nand_m_page_o,
    .nand_m_offset_o,
    .nand_m_nbytes_o,
    .die_data_valid_i
  );
endmodule
`default_nettype wire
