// Translation for the burst-buffer controller (paper section 4.3, docs/top.md): logical burst ->
// (logical block, page) through the BTT, then -> the burst's stripe, per die and logical plane
// the physical plane and block that hold it, through the stripe table.
//
// The stripe table holds the relocation table's forward map organised by block index, one
// flint_sram per (die, logical plane) of Blocks words {physical plane, physical block}, all read
// at the same address: a burst needs its whole stripe in one cycle, where the relocation
// table's lookup port gives one (die, plane) a cycle. The refresh controller writes an entry
// each time it commits a relocation (upd_*), with the values it committed. A production die
// would keep the forward map once, in this organisation; here it is a copy, priced as such in
// docs/area.md.
//
// Latency: burst named in cycle t (xlat_burst_i) -> BTT answer in t+1 -> stripe in t+2, so the
// controller runs with XlatLat = 2. One lookup a cycle. After reset a sweep of Blocks cycles
// writes the identity stripe (plane l -> plane l, block b -> block b), as the relocation table
// is then; busy_o is high meanwhile. A write and a read of the same block in one cycle read the
// old entry.
`default_nettype none
`include "flint_assert.svh"
module flint_xlat #(
  parameter int unsigned Dies      = flint_cfg_pkg::Dies,
  parameter int unsigned Planes    = flint_cfg_pkg::Planes,
  parameter int unsigned Blocks    = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages     = flint_cfg_pkg::Pages,
  parameter int unsigned Bursts    = flint_cfg_pkg::BurstsPerStack,
  // do not override
  localparam int unsigned DieBits   = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned LPlBits   = (Planes > 1) ? $clog2(Planes) : 1,
  localparam int unsigned PPlBits   = $clog2(Planes + 1),
  localparam int unsigned BlockBits = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits  = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned BurstBits = (Bursts > 1) ? $clog2(Bursts) : 1,
  localparam int unsigned EntryW    = PPlBits + BlockBits,
  localparam int unsigned StripeP   = Planes * PPlBits,
  localparam int unsigned StripeB   = Planes * BlockBits
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  output logic                        busy_o,
  // BTT load port (model load) and clear (a new load)
  input  logic                        btt_clear_i,
  input  logic                        load_valid_i,
  output logic                        load_ready_o,
  input  logic [BurstBits-1:0]        load_idx_i,
  input  logic [BlockBits-1:0]        load_block_i,
  input  logic [PageBits-1:0]         load_page_i,
  // lookup: the burst of cycle t, its translation in t+2
  input  logic [BurstBits-1:0]        xlat_burst_i,
  output logic                        xlat_ok_o,      // the BTT held the burst
  output logic [BlockBits-1:0]        xlat_lblock_o,
  output logic [PageBits-1:0]         xlat_page_o,
  output logic [Dies*StripeP-1:0]     xlat_planes_o,
  output logic [Dies*StripeB-1:0]     xlat_blocks_o,
  // a committed relocation: (die, logical plane, logical block) now lives at (plane, block)
  input  logic                        upd_valid_i,
  input  logic [DieBits-1:0]          upd_die_i,
  input  logic [LPlBits-1:0]          upd_lplane_i,
  input  logic [BlockBits-1:0]        upd_lblock_i,
  input  logic [PPlBits-1:0]          upd_pplane_i,
  input  logic [BlockBits-1:0]        upd_pblock_i
);
  // --- BTT: answer in the next cycle ----------------------------------------------------------
  logic unused_lookup_ready, btt_rsp_valid, unused_load_err, btt_busy;
  logic [BurstBits-1:0] unused_load_err_idx;
  flint_pkg::status_e btt_status;
  logic [BlockBits-1:0] btt_block;
  logic [PageBits-1:0] btt_page;
  flint_btt #(
    .Entries(Bursts),
    .Blocks (Blocks),
    .Pages  (Pages),
    .IdxBits(BurstBits)
  ) u_btt (
    .clk_i,
    .rst_ni,
    .clear_i       (btt_clear_i),
    .busy_o        (btt_busy),
    .load_err_o    (unused_load_err),
    .load_err_idx_o(unused_load_err_idx),
    .load_valid_i,
    .load_ready_o,
    .load_idx_i,
    .load_block_i,
    .load_page_i,
    .lookup_valid_i(1'b1),
    .lookup_ready_o(unused_lookup_ready),
    .lookup_idx_i  (xlat_burst_i),
    .rsp_valid_o   (btt_rsp_valid),
    .rsp_ready_i   (1'b1),
    .rsp_status_o  (btt_status),
    .rsp_block_o   (btt_block),
    .rsp_page_o    (btt_page)
  );

  // --- stripe table: one column a (die, logical plane), read at the BTT's block ---------------
  logic sweep_busy_q;
  logic [BlockBits:0] sweep_q;
  logic s2_ok_q;
  logic [BlockBits-1:0] s2_block_q;
  logic [PageBits-1:0] s2_page_q;
  for (genvar d = 0; d < Dies; d++) begin : g_die
    for (genvar l = 0; l < Planes; l++) begin : g_plane
      logic we;
      logic [BlockBits-1:0] wa;
      logic [EntryW-1:0] wd, rd;
      always_comb begin
        we = 1'b0;
        wa = upd_lblock_i;
        wd = {upd_pplane_i, upd_pblock_i};
        if (sweep_busy_q) begin
          we = 1'b1;
          wa = sweep_q[BlockBits-1:0];
          wd = {PPlBits'(l), sweep_q[BlockBits-1:0]};
        end else if (upd_valid_i && 32'(upd_die_i) == d && 32'(upd_lplane_i) == l) begin
          we = 1'b1;
        end
      end
      flint_sram #(
        .Width(EntryW),
        .Depth(Blocks)
      ) u_col (
        .clk_i,
        .rd_en_i  (1'b1),
        .rd_addr_i(btt_block),
        .rd_data_o(rd),
        .wr_en_i  (we),
        .wr_addr_i(wa),
        .wr_data_i(wd)
      );
      assign xlat_planes_o[(d*Planes + l)*PPlBits +: PPlBits] = rd[BlockBits +: PPlBits];
      assign xlat_blocks_o[(d*Planes + l)*BlockBits +: BlockBits] = rd[BlockBits-1:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sweep_busy_q <= 1'b1;
      sweep_q <= '0;
      s2_ok_q <= 1'b0;
      s2_block_q <= '0;
      s2_page_q <= '0;
    end else begin
      if (sweep_busy_q) begin
        sweep_q <= sweep_q + 1'b1;
        if (32'(sweep_q) + 1 == Blocks) sweep_busy_q <= 1'b0;
      end
      s2_ok_q <= btt_rsp_valid && btt_status == flint_pkg::StatusOk;
      s2_block_q <= btt_block;
      s2_page_q <= btt_page;
    end
  end
  assign busy_o = sweep_busy_q || btt_busy;
  assign xlat_ok_o = s2_ok_q;
  assign xlat_lblock_o = s2_block_q;
  assign xlat_page_o = s2_page_q;

  `FLINT_ASSERT(NoUpdateDuringSweep, !(sweep_busy_q && upd_valid_i))
  `FLINT_ASSERT_IMPLY(UpdateInRange, upd_valid_i, 32'(upd_pplane_i) <= Planes)
endmodule
`default_nettype wire
