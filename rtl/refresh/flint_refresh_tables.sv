// The tables of one refresh die's step (docs/refresh.md, "The refresh controller as built"), an
// SRAM each, a block of the logical plane lS an entry:
//   src[b]   S's block holding logical block b (written by the Query answers);
//   tgt[b]   P's block the copy of b goes to (the Alloc answers, an empty block's at its commit,
//            a retirement's restart);
//   next[b]  the next page of b to copy: 3D NAND programs a block's pages in order, so the pages
//            already copied are a prefix (0 at the Alloc and at a restart, +1 a completed page).
// Reads are one cycle (flint_sram): next[] at the fork's lookup of a new ACTIVE, else at the
// scrubber's cursor; src[] at the scrubber's block; tgt[] at the commit's index, else at the
// program queue's head block. At most one page completes a cycle (the fork's or the
// scrubber's, never both: the scrubber works parked), and a restart never meets a completion
// (flint_refresh_step asserts it).
`default_nettype none
module flint_refresh_tables #(
  // do not override
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned NextBits  = PageBits + 1
) (
  input  logic                  clk_i,
  // the step
  input  logic                  query_i,        // phase Query
  input  logic                  alloc_i,        // phase Alloc
  input  logic                  commit_i,       // phase Commit
  input  logic [BlockBits-1:0]  idx_i,          // the phase's block index
  // the relocation table's answers; a target to write at idx (flint_refresh_cmd)
  input  logic                  rc_rsp_valid_i,
  input  flint_pkg::blk_state_e rc_rsp_state_i,
  input  logic [BlockBits-1:0]  rc_rsp_block_i,
  input  logic [BlockBits-1:0]  rc_rsp_lblock_i,
  input  logic                  tgt_we_i,
  // a retirement's restart of block b's copy into P's block new (flint_refresh_copy)
  input  logic                  restart_i,
  input  logic [BlockBits-1:0]  restart_block_i,
  input  logic [BlockBits-1:0]  restart_new_i,
  // completed pages: the fork's, the scrubber's
  input  logic                  fk_done_i,
  input  logic [BlockBits-1:0]  fk_block_i,
  input  logic [PageBits-1:0]   fk_page_i,
  input  logic                  sc_done_i,
  input  logic [BlockBits-1:0]  sc_block_i,
  input  logic [PageBits-1:0]   sc_page_i,
  // read addresses
  input  logic                  fk_lookup_i,
  input  logic [BlockBits-1:0]  act_lblock_i,
  input  logic [BlockBits-1:0]  sc_cur_i,
  input  logic [BlockBits-1:0]  pq_block_i,
  // read data (the cycle after the address)
  output logic [BlockBits-1:0]  src_rd_o,
  output logic [BlockBits-1:0]  tgt_rd_o,
  output logic [NextBits-1:0]   nx_rd_o
);
  logic src_we, tgt_we, nx_we;
  logic [BlockBits-1:0] src_wa, tgt_wa, nx_wa, src_ra, tgt_ra, nx_ra;
  logic [BlockBits-1:0] src_wd, tgt_wd;
  logic [NextBits-1:0] nx_wd;
  flint_sram #(.Width(BlockBits), .Depth(Blocks)) u_src (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(src_ra), .rd_data_o(src_rd_o),
    .wr_en_i(src_we), .wr_addr_i(src_wa), .wr_data_i(src_wd));
  flint_sram #(.Width(BlockBits), .Depth(Blocks)) u_tgt (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(tgt_ra), .rd_data_o(tgt_rd_o),
    .wr_en_i(tgt_we), .wr_addr_i(tgt_wa), .wr_data_i(tgt_wd));
  flint_sram #(.Width(NextBits), .Depth(Blocks)) u_next (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(nx_ra), .rd_data_o(nx_rd_o),
    .wr_en_i(nx_we), .wr_addr_i(nx_wa), .wr_data_i(nx_wd));

  always_comb begin
    src_we = query_i && rc_rsp_valid_i && rc_rsp_state_i == flint_pkg::BlkMapped;
    src_wa = rc_rsp_lblock_i;
    src_wd = rc_rsp_block_i;
    tgt_we = tgt_we_i;
    tgt_wa = idx_i;
    tgt_wd = rc_rsp_block_i;
    nx_we = alloc_i && tgt_we_i;
    nx_wa = idx_i;
    nx_wd = '0;
    if (restart_i) begin
      tgt_we = 1'b1;
      tgt_wa = restart_block_i;
      tgt_wd = restart_new_i;
      nx_we = 1'b1;
      nx_wa = restart_block_i;
    end
    if (fk_done_i) begin
      nx_we = 1'b1;
      nx_wa = fk_block_i;
      nx_wd = NextBits'(fk_page_i) + 1'b1;
    end else if (sc_done_i) begin
      nx_we = 1'b1;
      nx_wa = sc_block_i;
      nx_wd = NextBits'(sc_page_i) + 1'b1;
    end
    nx_ra = fk_lookup_i ? act_lblock_i : sc_cur_i;
    src_ra = sc_block_i;
    tgt_ra = commit_i ? idx_i : pq_block_i;
  end
endmodule
`default_nettype wire
