// The fork of one refresh die (docs/refresh.md, "The fork"): copies the source plane's page of
// ACTIVE into the program queue as the accelerator reads its corrected lines. When a burst becomes
// ACTIVE (act_new_i) during the copy, next[] of its block is looked up (lookup_o: the parent
// addresses its next table with act_lblock_i, nx_rd_i answers the cycle after); the page is taken
// if it is next[b] of a live block the scrubber does not hold. Its lines count in any order,
// duplicates and uncorrectable ones ignored; the first opens a slot of the queue (refused when
// full: the page is dropped for this residency), the last completes it (done_o), and ACTIVE
// leaving first cancels it. Latency: the decision two cycles after act_new_i; lines pass into the
// queue in the cycle they arrive.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_fork #(
  // do not override
  localparam int unsigned Lines     = flint_cfg_pkg::ClPerPage,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned NextBits  = PageBits + 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the rotation step: copying, its live blocks, the logical plane the source holds
  input  logic                 copying_i,
  input  logic [BlockBits:0]   live_blocks_i,
  input  logic [LPlBits-1:0]   ls_i,
  // ACTIVE (stack-wide) and this die's corrected lines of it
  input  logic                 act_new_i,      // a new ACTIVE from the next cycle
  input  logic                 act_change_i,   // ACTIVE released this cycle
  input  logic [BlockBits-1:0] act_lblock_i,
  input  logic [PageBits-1:0]  act_page_i,
  input  logic                 fork_valid_i,
  input  logic [LPlBits-1:0]   fork_lplane_i,
  input  logic [LineBits-1:0]  fork_line_i,
  input  logic [StW-1:0]       fork_status_i,
  // next[] of ACTIVE's block (read in the cycle lookup_o is high)
  input  logic [NextBits-1:0]  nx_rd_i,
  // the scrubber holds a page of this block
  input  logic                 sc_busy_i,
  input  logic [BlockBits-1:0] sc_block_i,
  // the program queue's fork port (data straight from the fork lines)
  output logic                 fq_valid_o,
  output logic                 fq_open_o,
  output logic [LineBits-1:0]  fq_line_o,
  output logic                 fq_cancel_o,
  input  logic                 fq_room_i,
  input  logic                 fq_drop_i,
  // the fork's state, for the tables, the scrubber and the rotation
  output logic                 lookup_o,       // next[] of act_lblock_i asked for
  output logic                 decide_o,       // next[] at hand (the table's read port is ours)
  output logic                 take_o,         // copying a page
  output logic                 open_o,         // the page holds a slot of the queue
  output logic [BlockBits-1:0] block_o,
  output logic [PageBits-1:0]  page_o,
  output logic                 done_o,         // the page's last line is in
  // statistics
  output logic [31:0]          forked_o,       // pages copied
  output logic [31:0]          dropped_o       // pages refused for a full queue
);
  localparam logic [Lines-1:0] AllLines = {Lines{1'b1}};

  typedef enum logic [2:0] {
    FkNone   = 3'd0,  // no ACTIVE page of interest
    FkRead   = 3'd1,  // a new ACTIVE: read next[] of its block
    FkDecide = 3'd2,  // next[] is at hand
    FkTake   = 3'd3,  // the page is next of its block: copy its lines
    FkSkip   = 3'd4   // not this page (copied, out of order, not live, or dropped)
  } fork_e;
  fork_e fk_q, fk_d;
  logic [Lines-1:0] fk_mask_q, fk_mask_d;
  logic fk_open_q, fk_open_d;
  logic [BlockBits-1:0] fk_b_q;
  logic [PageBits-1:0] fk_p_q;
  logic [31:0] forked_q, dropped_q;
  logic fk_line, fk_accept, fk_done;
  // A line of S's page that can be copied: not uncorrectable, not seen yet.
  assign fk_line = fork_valid_i && fork_lplane_i == ls_i &&
                   fork_status_i != StW'(flint_pkg::StatusUncorrectable) &&
                   !fk_mask_q[fork_line_i];
  // The page is next[] of a live block, and the scrubber does not hold that block.
  assign fk_accept = copying_i && 32'(act_lblock_i) < 32'(live_blocks_i) &&
                     nx_rd_i == NextBits'(act_page_i) && !(sc_busy_i && sc_block_i == act_lblock_i);
  always_comb begin
    fk_d = fk_q;
    fk_mask_d = fk_mask_q;
    fk_open_d = fk_open_q;
    fq_valid_o = 1'b0;
    fq_open_o = 1'b0;
    fq_line_o = fork_line_i;
    fq_cancel_o = 1'b0;
    fk_done = 1'b0;
    unique case (fk_q)
      FkRead:   fk_d = FkDecide;
      FkDecide: fk_d = fk_accept ? FkTake : FkSkip;
      default: ;
    endcase
    if ((fk_q == FkTake || (fk_q == FkDecide && fk_accept)) && fk_line) begin
      if (!fk_open_q) begin
        // The first line opens the page; a full queue drops it for this residency.
        fq_valid_o = 1'b1;
        fq_open_o = 1'b1;
        if (fq_room_i) begin
          fk_open_d = 1'b1;
          fk_mask_d = AllLines & (Lines'(1) << fork_line_i);
        end else begin
          fk_d = FkSkip;
        end
      end else begin
        fq_valid_o = 1'b1;
        fk_mask_d = fk_mask_q | (Lines'(1) << fork_line_i);
      end
      if (fk_open_d && fk_mask_d == AllLines) begin
        fk_done = 1'b1;
        fk_open_d = 1'b0;
        fk_mask_d = '0;
        fk_d = FkSkip;
      end
    end
    // ACTIVE leaves: an unfinished page gives its slot back, and a line of it arriving in the
    // same cycle is not written (the queue takes a cancel alone, a_fork_cancel_alone; a page
    // left unfinished by an uncorrectable line meets ACTIVE's release with its last lines
    // still coming: found by the fault campaign, docs/fault_campaign_top.md). A first line in
    // that cycle opens nothing. A new ACTIVE: look its block up.
    if (act_change_i && !fk_done) begin
      fq_cancel_o = fk_open_q;
      fq_valid_o = 1'b0;
      fq_open_o = 1'b0;
      fk_open_d = 1'b0;
      fk_mask_d = '0;
    end
    if (act_change_i) fk_d = FkNone;
    if (act_new_i) begin
      fk_d = copying_i ? FkRead : FkNone;
      fk_mask_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fk_q <= FkNone;
      fk_mask_q <= '0;
      fk_open_q <= 1'b0;
    end else begin
      fk_q <= fk_d;
      fk_mask_q <= fk_mask_d;
      fk_open_q <= fk_open_d;
    end
  end
  // The fork's page: ACTIVE's block and page, taken when it is looked up.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fk_b_q <= '0;
      fk_p_q <= '0;
    end else if (fk_q == FkRead) begin
      fk_b_q <= act_lblock_i;
      fk_p_q <= act_page_i;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      forked_q <= '0;
      dropped_q <= '0;
    end else begin
      if (fk_done) forked_q <= forked_q + 1'b1;
      if (fq_drop_i) dropped_q <= dropped_q + 1'b1;
    end
  end

  assign lookup_o = fk_q == FkRead;
  assign decide_o = fk_q == FkDecide;
  assign take_o = fk_q == FkTake;
  assign open_o = fk_open_q;
  assign block_o = fk_b_q;
  assign page_o = fk_p_q;
  assign done_o = fk_done;
  assign forked_o = forked_q;
  assign dropped_o = dropped_q;

  // No line of S's page arrives in the cycle its block is looked up.
  `FLINT_ASSERT_IMPLY(NoForkLineBeforeLookup, fk_q == FkRead, !(fork_valid_i &&
                      fork_lplane_i == ls_i && copying_i))
  `FLINT_COVER(c_fork_take, fk_q == FkTake)
  `FLINT_COVER(c_fork_skip, fk_q == FkSkip)
  `FLINT_COVER(c_fork_cancel, fq_cancel_o)
  `FLINT_COVER(c_fork_cancel_with_line, fq_cancel_o && fk_line)
endmodule
`default_nettype wire
