// The commands of one refresh die's rotation to the relocation table and the read counters
// (docs/refresh.md, "The refresh controller as built"), by phase of the step (flint_refresh_die):
//   query   Query (S, idx): S's blocks;
//   alloc   Alloc (lS, idx) for each live block: its target on P;
//   copy    a retirement's MarkBad (P, y), then Alloc (lS, b) (flint_refresh_copy);
//   commit  Commit (P, tgt[idx]) (tgt[] read at idx the cycle before), an empty block's Alloc
//           (lS, idx) first; a Commit's answer is the stripe table's update;
//   erase   Release (S, idx) once its erase is answered, MarkBad instead if the erase failed;
//           the read-count reset (S, idx).
// One relocation and one counter command in flight: the next goes the cycle after an answer.
// An answer the step cannot use is an error pulse: no free good block on P (no_spare_o), or a
// refusal or an answer for the wrong plane (reloc_o); Query's answers are the parent's to judge.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_cmd #(
  // do not override
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned RcW       = flint_pkg::RelocCmdWidth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // the step: its phase, block index, live blocks, planes, tgt[idx]
  input  logic                     query_i,
  input  logic                     alloc_i,
  input  logic                     copy_i,
  input  logic                     commit_i,
  input  logic                     erase_i,
  input  logic [BlockBits:0]       idx_i,
  input  logic [BlockBits:0]       live_blocks_i,
  input  logic [PPlBits-1:0]       phantom_i,
  input  logic [PPlBits-1:0]       source_i,
  input  logic [LPlBits-1:0]       ls_i,
  input  logic [BlockBits-1:0]     tgt_rd_i,
  // the engines (flint_refresh_copy): a retirement's commands, the erase phase's
  input  logic                     rt_mark_i,
  input  logic                     rt_alloc_i,
  input  logic [BlockBits-1:0]     rt_block_i,
  input  logic [BlockBits-1:0]     rt_pblock_i,
  input  logic                     er_release_i,
  input  logic                     er_bad_i,
  input  logic                     er_count_i,
  // relocation table commands; plane/block as the table takes them
  output logic                     rc_valid_o,
  input  logic                     rc_ready_i,
  output logic [RcW-1:0]           rc_op_o,        // a flint_pkg::reloc_cmd_e value
  output logic [PPlBits-1:0]       rc_plane_o,
  output logic [BlockBits-1:0]     rc_block_o,
  input  logic                     rc_rsp_valid_i,
  output logic                     rc_rsp_ready_o,
  input  flint_pkg::ftl_status_e   rc_rsp_status_i,
  input  logic [PPlBits-1:0]       rc_rsp_plane_i,
  // read-counter reset of an erased block
  output logic                     cc_valid_o,
  input  logic                     cc_ready_i,
  output logic [PPlBits-1:0]       cc_plane_o,
  output logic [BlockBits-1:0]     cc_block_o,
  input  logic                     cc_rsp_valid_i,
  // for the step: a command awaits its answer, a Commit answered (the stripe update), a target
  // answered (tgt[idx] = the answer's block), errors
  output logic                     wait_o,
  output logic                     commit_ans_o,
  output logic                     upd_valid_o,
  output logic [BlockBits-1:0]     upd_pblock_o,
  output logic                     tgt_we_o,
  output logic                     no_spare_o,
  output logic                     reloc_o
);
  logic rc_wait_q, cc_wait_q;
  logic cm_ready_q;                     // commit: tgt[idx] is on the SRAM's output
  logic [BlockBits-1:0] blk_q;          // the block of the command in flight
  logic al_q;                           // the command in flight is an Alloc of the commit phase
  logic cm_al_q;                        // commit: the empty block idx has its target
  logic empty;                          // commit: idx is an empty block without its target
  logic rc_ok;
  assign empty = 32'(idx_i) >= 32'(live_blocks_i) && !cm_al_q;
  assign rc_ok = rc_rsp_status_i == flint_pkg::FtlOk;

  always_comb begin
    rc_valid_o = 1'b0;
    rc_op_o = RcW'(flint_pkg::RelocCmdQuery);
    rc_plane_o = source_i;
    rc_block_o = idx_i[BlockBits-1:0];
    if (query_i) rc_valid_o = !rc_wait_q && 32'(idx_i) < Blocks;
    if (alloc_i || (commit_i && empty)) begin
      rc_valid_o = !rc_wait_q && 32'(idx_i) < (alloc_i ? 32'(live_blocks_i) : Blocks);
      rc_op_o = RcW'(flint_pkg::RelocCmdAlloc);
      rc_plane_o = PPlBits'(ls_i);
    end
    if (copy_i) begin
      rc_valid_o = (rt_mark_i || rt_alloc_i) && !rc_wait_q;
      rc_op_o = RcW'(rt_mark_i ? flint_pkg::RelocCmdMarkBad : flint_pkg::RelocCmdAlloc);
      rc_plane_o = rt_mark_i ? phantom_i : PPlBits'(ls_i);
      rc_block_o = rt_mark_i ? rt_pblock_i : rt_block_i;
    end
    if (commit_i && !empty) begin
      // tgt[idx] was read in the cycle before (rc_wait_q drops a cycle before the next send)
      rc_valid_o = !rc_wait_q && 32'(idx_i) < Blocks && cm_ready_q;
      rc_op_o = RcW'(flint_pkg::RelocCmdCommit);
      rc_plane_o = phantom_i;
      rc_block_o = tgt_rd_i;
    end
    if (erase_i) begin
      rc_valid_o = er_release_i && !rc_wait_q;
      rc_op_o = RcW'(er_bad_i ? flint_pkg::RelocCmdMarkBad : flint_pkg::RelocCmdRelease);
    end
  end
  assign rc_rsp_ready_o = 1'b1;
  assign cc_valid_o = erase_i && er_count_i && !cc_wait_q;
  assign cc_plane_o = source_i;
  assign cc_block_o = idx_i[BlockBits-1:0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rc_wait_q <= 1'b0;
      cc_wait_q <= 1'b0;
      cm_ready_q <= 1'b0;
      blk_q <= '0;
      al_q <= 1'b0;
      cm_al_q <= 1'b0;
    end else begin
      if (rc_valid_o && rc_ready_i) rc_wait_q <= 1'b1;
      if (rc_rsp_valid_i) rc_wait_q <= 1'b0;
      if (cc_valid_o && cc_ready_i) cc_wait_q <= 1'b1;
      if (cc_rsp_valid_i) cc_wait_q <= 1'b0;
      cm_ready_q <= commit_i && !rc_wait_q && !(rc_valid_o && rc_ready_i);
      if (rc_valid_o && rc_ready_i) begin
        blk_q <= rc_block_o;
        al_q <= commit_i && rc_op_o == RcW'(flint_pkg::RelocCmdAlloc);
      end
      if (commit_i && rc_rsp_valid_i && al_q && rc_ok) cm_al_q <= 1'b1;
      if (commit_ans_o) cm_al_q <= 1'b0;
    end
  end

  // The answers: a Commit's (from the vacated plane S), an Alloc's (a block of P).
  assign wait_o = rc_wait_q;
  assign commit_ans_o = commit_i && rc_rsp_valid_i && !al_q;
  assign upd_valid_o = commit_ans_o && rc_ok;
  assign upd_pblock_o = blk_q;
  assign tgt_we_o = (alloc_i || (commit_i && al_q)) && rc_rsp_valid_i && rc_ok;
  assign no_spare_o = (alloc_i || commit_i) && rc_rsp_valid_i &&
                      rc_rsp_status_i == flint_pkg::FtlNoFree;
  assign reloc_o = ((alloc_i || commit_i) && rc_rsp_valid_i && !no_spare_o &&
                    (!rc_ok || rc_rsp_plane_i != (commit_ans_o ? source_i : phantom_i))) ||
                   (erase_i && er_release_i && rc_rsp_valid_i && !rc_ok);

  // One phase at a time.
  `FLINT_ASSERT(OnePhase, $countones({query_i, alloc_i, copy_i, commit_i, erase_i}) <= 1)
  // A command is held until taken.
  `FLINT_ASSERT_IMPLY(CmdHeld, $past(rc_valid_o && !rc_ready_i) && $stable({query_i, alloc_i,
                      copy_i, commit_i, erase_i}), rc_valid_o && $stable({rc_op_o, rc_plane_o,
                      rc_block_o}))
  `FLINT_COVER(c_commit_empty_alloc, commit_i && rc_rsp_valid_i && al_q && rc_ok)
endmodule
`default_nettype wire
