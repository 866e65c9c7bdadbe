// Logical-to-physical plane map: for every die and logical block index b, the phantom plane of
// b, i.e. the one physical plane out of Planes+1 that holds none of the die's Planes copies of
// logical block b and so is left out of the read stripe of every burst in block b. A copy of
// block b for refresh or bad-block replacement goes to that plane, and the plane it vacates
// becomes the new phantom of b (docs/ftl.md explains why the phantom is kept per block index and
// not only per die). Each entry also carries a pending flag: a relocation of block b on this die
// has reserved a block on the phantom plane and has not finished.
//
// Storage: one flint_sram of Dies*Blocks words {pending, phantom}. A sweep after reset sets every
// word to {0, Planes}: the extra physical plane of each die is the phantom of every block, as
// the relocation table starts out as the identity. busy_o is high for the Dies*Blocks cycles of
// the sweep; the port must not be used meanwhile.
// Read: address in cycle t, data in cycle t+1 (rd_stripe_o = one bit per physical plane, set for
// the planes a burst in block b senses on that die). Write: takes effect for reads of the next
// cycle; a read and a write of one entry in the same cycle return the old word.
`default_nettype none
`include "flint_assert.svh"
module flint_plane_map #(
  parameter int unsigned Dies   = flint_cfg_pkg::Dies,
  parameter int unsigned Planes = flint_cfg_pkg::Planes,
  parameter int unsigned Blocks = flint_cfg_pkg::Blocks,
  // do not override
  localparam int unsigned PhysPlanes    = Planes + 1,
  localparam int unsigned DieBits       = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned PhysPlaneBits = $clog2(PhysPlanes),
  localparam int unsigned BlockBits     = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned Entries       = Dies * Blocks,
  localparam int unsigned AddrBits      = (Entries > 1) ? $clog2(Entries) : 1,
  localparam int unsigned Width         = 1 + PhysPlaneBits
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  output logic                     busy_o,
  // read port
  input  logic                     rd_en_i,
  input  logic [DieBits-1:0]       rd_die_i,
  input  logic [BlockBits-1:0]     rd_block_i,
  output logic [PhysPlaneBits-1:0] rd_phantom_o,
  output logic                     rd_pending_o,
  output logic [PhysPlanes-1:0]    rd_stripe_o,
  // write port
  input  logic                     wr_en_i,
  input  logic [DieBits-1:0]       wr_die_i,
  input  logic [BlockBits-1:0]     wr_block_i,
  input  logic [PhysPlaneBits-1:0] wr_phantom_i,
  input  logic                     wr_pending_i
);
  function automatic logic [AddrBits-1:0] addr(input logic [DieBits-1:0] die,
                                               input logic [BlockBits-1:0] block);
    addr = AddrBits'(32'(die) * Blocks + 32'(block));
  endfunction

  logic busy_q;
  logic [AddrBits-1:0] sweep_q;
  logic sram_wr_en;
  logic [AddrBits-1:0] sram_wr_addr;
  logic [Width-1:0] sram_wr_data, sram_rd_data;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b1;
      sweep_q <= '0;
    end else if (busy_q) begin
      sweep_q <= sweep_q + 1'b1;
      if (32'(sweep_q) == Entries - 1) busy_q <= 1'b0;
    end
  end

  assign sram_wr_en   = busy_q || wr_en_i;
  assign sram_wr_addr = busy_q ? sweep_q : addr(wr_die_i, wr_block_i);
  assign sram_wr_data = busy_q ? {1'b0, PhysPlaneBits'(Planes)} : {wr_pending_i, wr_phantom_i};

  flint_sram #(
    .Width(Width),
    .Depth(Entries)
  ) u_map (
    .clk_i,
    .rd_en_i  (rd_en_i),
    .rd_addr_i(addr(rd_die_i, rd_block_i)),
    .rd_data_o(sram_rd_data),
    .wr_en_i  (sram_wr_en),
    .wr_addr_i(sram_wr_addr),
    .wr_data_i(sram_wr_data)
  );

  assign rd_pending_o = sram_rd_data[Width-1];
  assign rd_phantom_o = sram_rd_data[PhysPlaneBits-1:0];
  always_comb begin
    rd_stripe_o = '1;
    for (int unsigned p = 0; p < PhysPlanes; p++) begin
      if (PhysPlaneBits'(p) == rd_phantom_o) rd_stripe_o[p] = 1'b0;
    end
  end
  assign busy_o = busy_q;

`ifndef SYNTHESIS
  logic rd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rd_q <= 1'b0;
    else rd_q <= rd_en_i;
  end
  `FLINT_ASSERT_IMPLY(a_no_use_while_busy, busy_q, !rd_en_i && !wr_en_i)
  `FLINT_ASSERT_IMPLY(a_write_is_a_plane, wr_en_i, 32'(wr_phantom_i) < PhysPlanes)
  `FLINT_ASSERT_IMPLY(a_read_die_in_range, rd_en_i, 32'(rd_die_i) < Dies)
  `FLINT_ASSERT_IMPLY(a_write_die_in_range, wr_en_i, 32'(wr_die_i) < Dies)
  // The phantom is a real plane and the stripe is every other plane: Planes senses a burst.
  `FLINT_ASSERT_IMPLY(a_phantom_is_a_plane, rd_q, 32'(rd_phantom_o) < PhysPlanes)
  `FLINT_ASSERT_IMPLY(a_stripe_masks_phantom, rd_q,
                      $countones(rd_stripe_o) == Planes && !rd_stripe_o[rd_phantom_o])
  // A read of a pending entry; a read and a write of one entry in one cycle (old word).
  `FLINT_COVER(c_read_pending, rd_q && rd_pending_o)
  `FLINT_COVER(c_read_beside_write, rd_en_i && wr_en_i && rd_die_i == wr_die_i &&
                                    rd_block_i == wr_block_i)
`endif
endmodule
`default_nettype wire
