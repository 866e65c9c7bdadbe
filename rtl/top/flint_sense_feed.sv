// Every page sense reaches the read-disturb counters (docs/ftl.md, section 4; docs/top.md).
//
// A burst sense names one logical block b; it senses b's copy on every (die, logical plane).
// For each sense the feed asks the relocation table, one (die, plane) a cycle, where b lives,
// and hands (die, physical plane, physical block) to the counters: Dies*Planes events a burst
// (8 every 33 cycles at small, 512 every 2068 at paper). The refresh controllers' own page
// reads (one plane each) arrive as pulses and wait in a pending register a die, served between
// bursts' events. The lookup gives the mapping current when it is made: a sense in the few
// cycles around a relocation commit may count on the new block instead of the old, which the
// erase of the old block then resets anyway.
`default_nettype none
`include "flint_assert.svh"
module flint_sense_feed #(
  parameter int unsigned Depth = 4,  // burst senses waiting for their events
  // do not override
  localparam int unsigned Dies      = flint_cfg_pkg::Dies,
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned DieBits   = flint_cfg_pkg::DieBits,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PblkW     = flint_cfg_pkg::PblkWidth
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // a burst sense of logical block sense_lblock_i (all dies, all planes)
  input  logic                      sense_i,
  input  logic [BlockBits-1:0]      sense_lblock_i,
  // the refresh controllers' page reads, a pulse a die, a flint_cfg_pkg::pblk_t a die
  input  logic [Dies-1:0]           own_i,
  input  logic [Dies*PblkW-1:0]     own_blk_i,
  // relocation table lookups
  output logic                      lk_valid_o,
  input  logic                      lk_ready_i,
  output logic [DieBits-1:0]        lk_die_o,
  output logic [LPlBits-1:0]        lk_plane_o,
  output logic [BlockBits-1:0]      lk_block_o,
  input  logic                      lk_rsp_valid_i,
  output logic                      lk_rsp_ready_o,
  input  logic [PPlBits-1:0]        lk_rsp_plane_i,
  input  logic [BlockBits-1:0]      lk_rsp_block_i,
  // the counters' sense port
  output logic                      cnt_valid_o,
  input  logic                      cnt_ready_i,
  output logic [DieBits-1:0]        cnt_die_o,
  output logic [PPlBits-1:0]        cnt_plane_o,
  output logic [BlockBits-1:0]      cnt_block_o,
  output logic                      overflow_o   // a burst sense found the queue full (sticky)
);
  localparam int unsigned Slices = Dies * Planes;
  localparam int unsigned SliceBits = $clog2(Slices + 1);
  localparam int unsigned UseBits = $clog2(Depth + 1);

  // Burst senses waiting.
  logic q_valid, q_pop, q_in_ready;
  logic [BlockBits-1:0] q_block;
  logic [UseBits-1:0] unused_q_used;
  flint_fifo #(
    .Width(BlockBits),
    .Depth(Depth)
  ) u_q (
    .clk_i, .rst_ni,
    .in_valid_i (sense_i),
    .in_ready_o (q_in_ready),
    .in_data_i  (sense_lblock_i),
    .out_valid_o(q_valid),
    .out_ready_i(q_pop),
    .out_data_o (q_block),
    .usage_o    (unused_q_used)
  );

  // The lookups of the head sense, one (die, plane) a cycle; the answer goes straight on to the
  // counters, so a lookup is issued only while the answer before it is taken.
  logic [SliceBits-1:0] slice_q;
  logic [DieBits-1:0] rsp_die_q;
  logic rsp_taken, lk_go;
  assign rsp_taken = !lk_rsp_valid_i || cnt_ready_i;
  assign lk_valid_o = q_valid && rsp_taken;
  assign lk_die_o = DieBits'(32'(slice_q) / Planes);
  assign lk_plane_o = LPlBits'(32'(slice_q) % Planes);
  assign lk_block_o = q_block;
  assign lk_go = lk_valid_o && lk_ready_i;
  assign q_pop = lk_go && 32'(slice_q) == Slices - 1;
  assign lk_rsp_ready_o = cnt_ready_i;

  // Own reads: pending a die, served in a cycle without a lookup answer.
  logic [Dies-1:0] own_q;
  logic [Dies*PblkW-1:0] own_blk_q;
  logic own_any;
  logic [DieBits-1:0] own_die;
  flint_cfg_pkg::pblk_t own_sel;
  always_comb begin
    own_any = 1'b0;
    own_die = '0;
    own_sel = '0;
    // The lowest pending die, and its block by constant selects (an indexed select of a 14-bit
    // field costs a shifter: 40 % more area at paper).
    for (int unsigned d = Dies; d > 0; d--) begin
      if (own_q[d-1]) begin
        own_any = 1'b1;
        own_die = DieBits'(d - 1);
        own_sel = own_blk_q[(d-1)*PblkW +: PblkW];
      end
    end
    cnt_valid_o = lk_rsp_valid_i || own_any;
    cnt_die_o = lk_rsp_valid_i ? rsp_die_q : own_die;
    cnt_plane_o = lk_rsp_valid_i ? lk_rsp_plane_i : own_sel.plane;
    cnt_block_o = lk_rsp_valid_i ? lk_rsp_block_i : own_sel.block;
  end
  logic own_taken;
  assign own_taken = !lk_rsp_valid_i && own_any && cnt_ready_i;

  // A block of its own a die: with the in-place refresh modes own_i is constant 0, and one
  // loop over the dies in the block below trips an internal error of Verilator 5.006 (V3Gate).
  for (genvar d = 0; d < Dies; d++) begin : g_own
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        own_q[d] <= 1'b0;
        own_blk_q[d*PblkW +: PblkW] <= '0;
      end else begin
        if (own_taken && 32'(own_die) == d) own_q[d] <= 1'b0;
        if (own_i[d]) begin
          own_q[d] <= 1'b1;
          own_blk_q[d*PblkW +: PblkW] <= own_blk_i[d*PblkW +: PblkW];
        end
      end
    end
  end

  logic overflow_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slice_q <= '0;
      rsp_die_q <= '0;
      overflow_q <= 1'b0;
    end else begin
      if (lk_go) begin
        slice_q <= (32'(slice_q) == Slices - 1) ? '0 : slice_q + 1'b1;
        rsp_die_q <= lk_die_o;
      end
      if (sense_i && !q_in_ready) overflow_q <= 1'b1;
    end
  end
  assign overflow_o = overflow_q;

  // No sense is lost: a burst sense finds room, an own read finds its die's register free.
  `FLINT_ASSERT_IMPLY(SenseQueued, sense_i, q_in_ready)
  `FLINT_ASSERT(OwnNotOverwritten, (own_i & own_q & ~({Dies{own_taken}} &
                (Dies'(1) << own_die))) == '0)
endmodule
`default_nettype wire
