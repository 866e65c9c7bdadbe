// The step of one refresh die's rotation (docs/refresh.md, "The refresh controller as built"):
// its phase FSM (flint_pkg::refresh_phase_e), the block index of the phase, the pages to copy and
// copied, the planes (phantom P, source S, the logical plane lS that S holds and which of S's
// blocks hold live data) and the error that halts the die. flint_refresh_die wires it to the
// engines that do the work; this module only sequences:
//   choose -> query -> alloc -> copy -> commit -> settle -> vacate -> erase -> choose ...
// Off while the die is not enabled; any error halts it until it is disabled.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_step #(
  parameter int unsigned Mode   = 0,  // 0 FLINT phantom rotation; anything else stays off
  parameter int unsigned Settle = 4,  // cycles after the last commit before S is checked
  // do not override
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages     = flint_cfg_pkg::Pages,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned CountBits = $clog2(Blocks * Pages + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      enable_i,
  input  logic [BlockBits:0]        live_blocks_i,
  input  logic [PhysPl-1:0]         res_planes_i,   // planes holding ACTIVE or NEXT
  // choose: the source picked (flint_refresh_choose)
  input  logic                      hit_i,
  input  logic [PPlBits-1:0]        pick_i,
  // the relocation table's answers (Query: S's blocks), the commands' progress (flint_refresh_cmd)
  input  logic                      rc_rsp_valid_i,
  input  flint_pkg::blk_state_e     rc_rsp_state_i,
  input  logic [LPlBits-1:0]        rc_rsp_lplane_i,
  input  logic [BlockBits-1:0]      rc_rsp_lblock_i,
  input  logic                      rc_wait_i,      // a relocation command awaits its answer
  input  logic                      commit_ans_i,   // a Commit answered
  input  logic                      er_count_i,     // erase phase: the block's counter reset sent
  input  logic                      cc_rsp_valid_i,
  // copy: a page in (its last line queued), nothing left in flight, a block's copy restarted
  input  logic                      page_in_i,
  input  logic                      drained_i,
  input  logic                      restart_i,
  input  logic [CountBits-1:0]      undo_i,         // pages the restart takes back
  // errors of the engines (pulses)
  input  logic                      no_spare_i,     // no free good block on P
  input  logic                      prog_fail_i,    // a program failed while a block retired
  input  logic                      reloc_i,        // a table command refused or misanswered
  input  logic                      addr_bad_i,     // the sequencer refused an address
  // the step
  output flint_pkg::refresh_phase_e phase_o,
  output logic                      choose_enter_o, // the phase becomes choose next cycle
  output logic                      copy_start_o,   // alloc -> copy this cycle
  output logic                      erase_start_o,  // vacate -> erase this cycle
  output logic [BlockBits:0]        idx_o,
  output logic [CountBits-1:0]      total_o,
  output logic [CountBits-1:0]      done_o,
  output logic [PPlBits-1:0]        phantom_o,
  output logic [PPlBits-1:0]        source_o,
  output logic [LPlBits-1:0]        ls_o,
  output logic                      idx_live_o,     // S's block idx holds a live logical block
  output logic [31:0]               rotations_o,
  output logic                      err_o,
  output flint_pkg::refresh_err_e   err_code_o
);
  flint_pkg::refresh_phase_e st_q, st_d;
  logic [BlockBits:0] idx_q, idx_d;
  logic [CountBits-1:0] total_q, total_d, done_q, done_d;
  logic err_q, err_d;
  flint_pkg::refresh_err_e code_q, code_d;
  logic [PPlBits-1:0] p_q, s_q;
  logic [LPlBits-1:0] ls_q;
  logic ls_known_q;
  logic [Blocks-1:0] xlive_q;
  logic [31:0] rot_q;
  logic [$clog2(Settle + 1)-1:0] settle_q;

  always_comb begin
    st_d = st_q;
    unique case (st_q)
      flint_pkg::RefreshOff:    if (enable_i && Mode == 0) st_d = flint_pkg::RefreshChoose;
      flint_pkg::RefreshChoose: if (hit_i) st_d = flint_pkg::RefreshQuery;
      flint_pkg::RefreshQuery:
        if (32'(idx_q) == Blocks && !rc_wait_i) st_d = flint_pkg::RefreshAlloc;
      flint_pkg::RefreshAlloc:
        if (32'(idx_q) >= 32'(live_blocks_i) && !rc_wait_i) st_d = flint_pkg::RefreshCopy;
      flint_pkg::RefreshCopy:   if (done_q == total_q && drained_i) st_d = flint_pkg::RefreshCommit;
      flint_pkg::RefreshCommit:
        if (32'(idx_q) == Blocks && !rc_wait_i) st_d = flint_pkg::RefreshSettle;
      flint_pkg::RefreshSettle: if (32'(settle_q) == Settle) st_d = flint_pkg::RefreshVacate;
      flint_pkg::RefreshVacate: if (!res_planes_i[s_q]) st_d = flint_pkg::RefreshErase;
      flint_pkg::RefreshErase:  if (32'(idx_q) == Blocks) st_d = flint_pkg::RefreshChoose;
      default:  ;
    endcase
    if (err_q) st_d = flint_pkg::RefreshHalt;
    if (!enable_i) st_d = flint_pkg::RefreshOff;
  end
  assign choose_enter_o = st_d == flint_pkg::RefreshChoose && st_q != flint_pkg::RefreshChoose;
  assign copy_start_o = st_q == flint_pkg::RefreshAlloc && st_d == flint_pkg::RefreshCopy;
  assign erase_start_o = st_q == flint_pkg::RefreshVacate && st_d == flint_pkg::RefreshErase;

  // The block index: one a table answer (a counter answer when erasing), from 0 each phase.
  always_comb begin
    idx_d = idx_q;
    unique case (st_q)
      flint_pkg::RefreshChoose: if (hit_i) idx_d = '0;
      flint_pkg::RefreshQuery, flint_pkg::RefreshAlloc: if (rc_rsp_valid_i) idx_d = idx_q + 1'b1;
      flint_pkg::RefreshCommit: if (commit_ans_i) idx_d = idx_q + 1'b1;
      flint_pkg::RefreshErase: if (er_count_i && cc_rsp_valid_i) idx_d = idx_q + 1'b1;
      default: ;
    endcase
    if ((st_q == flint_pkg::RefreshQuery && st_d == flint_pkg::RefreshAlloc) || copy_start_o ||
        (st_q == flint_pkg::RefreshCopy && st_d == flint_pkg::RefreshCommit) || erase_start_o) begin
      idx_d = '0;
    end
  end
  // Pages to copy and copied: set when the copy starts; a page counts when its last line is in.
  always_comb begin
    total_d = total_q;
    done_d = done_q;
    if (st_q == flint_pkg::RefreshAlloc && rc_rsp_valid_i) begin
      total_d = '0;
      done_d = '0;
    end
    if (copy_start_o) begin
      total_d = CountBits'(32'(live_blocks_i) * Pages);
      done_d = '0;
    end
    if (page_in_i) done_d = done_q + 1'b1;
    if (restart_i) done_d = done_q - undo_i;  // the block's copy restarts (none comes in then)
  end
  // Errors halt the die; the last one seen names it. No free good block on P (NoSpare), a program
  // failure while another block is retired (Program), and an answer refusing an address (Reloc:
  // the rotation's addresses came from the table). A failed program or erase alone retires the
  // block (flint_refresh_copy) and the rotation goes on.
  always_comb begin
    err_d = err_q;
    code_d = code_q;
    if (st_q == flint_pkg::RefreshQuery && rc_rsp_valid_i &&
        (rc_rsp_state_i != flint_pkg::BlkMapped || (ls_known_q && rc_rsp_lplane_i != ls_q))) begin
      err_d = 1'b1;  // a block S does not map, or of another logical plane: not a whole plane
      code_d = flint_pkg::RefreshErrSource;
    end
    if (no_spare_i || reloc_i || prog_fail_i) begin
      err_d = 1'b1;
      code_d = no_spare_i ? flint_pkg::RefreshErrNoSpare :
               (prog_fail_i ? flint_pkg::RefreshErrProgram : flint_pkg::RefreshErrReloc);
    end
    if (addr_bad_i) begin
      err_d = 1'b1;
      code_d = flint_pkg::RefreshErrReloc;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= flint_pkg::RefreshOff;
      idx_q <= '0;
      total_q <= '0;
      done_q <= '0;
      err_q <= 1'b0;
      code_q <= flint_pkg::RefreshErrNone;
    end else begin
      st_q <= st_d;
      idx_q <= idx_d;
      total_q <= total_d;
      done_q <= done_d;
      err_q <= err_d;
      code_q <= code_d;
    end
  end
  // The planes: S when chosen; P becomes S once S is erased.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_q <= PPlBits'(Planes);  // the extra plane starts as the phantom of every block
      s_q <= '0;
      rot_q <= '0;
    end else begin
      if (st_q == flint_pkg::RefreshChoose && hit_i) s_q <= pick_i;
      if (st_q == flint_pkg::RefreshErase && st_d == flint_pkg::RefreshChoose) begin
        p_q <= s_q;
        rot_q <= rot_q + 1'b1;
      end
    end
  end
  // What S holds: its logical plane and its live blocks, learnt from the Query answers.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ls_q <= '0;
      ls_known_q <= 1'b0;
      xlive_q <= '0;
    end else if (st_q == flint_pkg::RefreshChoose && hit_i) begin
      ls_known_q <= 1'b0;
      xlive_q <= '0;
    end else if (st_q == flint_pkg::RefreshQuery && rc_rsp_valid_i &&
                 rc_rsp_state_i == flint_pkg::BlkMapped) begin
      xlive_q[idx_q[BlockBits-1:0]] <= 32'(rc_rsp_lblock_i) < 32'(live_blocks_i);
      ls_q <= rc_rsp_lplane_i;
      ls_known_q <= 1'b1;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) settle_q <= '0;
    else if (st_q == flint_pkg::RefreshCommit && st_d == flint_pkg::RefreshSettle) settle_q <= '0;
    else if (st_q == flint_pkg::RefreshSettle) settle_q <= settle_q + 1'b1;
  end

  assign phase_o = st_q;
  assign idx_o = idx_q;
  assign total_o = total_q;
  assign done_o = done_q;
  assign phantom_o = p_q;
  assign source_o = s_q;
  assign ls_o = ls_q;
  assign idx_live_o = xlive_q[idx_q[BlockBits-1:0]];
  assign rotations_o = rot_q;
  assign err_o = err_q;
  assign err_code_o = code_q;

  // --- invariants ------------------------------------------------------------------------------
  // A page counts once: never more pages than the step copies.
  `FLINT_ASSERT(CountBounded, done_q <= total_q)
  // A restart rewrites next[] alone, and takes back no more pages than were counted.
  `FLINT_ASSERT_IMPLY(RestartAlone, restart_i,
                      st_q == flint_pkg::RefreshCopy && !page_in_i && undo_i <= done_q)
  // The phantom and the source are planes of the die, and never the same while a step runs.
  `FLINT_ASSERT(PlanesInDie, 32'(p_q) < PhysPl && 32'(s_q) < PhysPl)
  `FLINT_ASSERT_IMPLY(SourceNotPhantom, st_q != flint_pkg::RefreshOff &&
                      st_q != flint_pkg::RefreshChoose && st_q != flint_pkg::RefreshHalt,
                      s_q != p_q)

  // Functional cover points: each phase and the halt.
  `FLINT_COVER(c_choose, st_q == flint_pkg::RefreshChoose)
  `FLINT_COVER(c_query, st_q == flint_pkg::RefreshQuery)
  `FLINT_COVER(c_alloc, st_q == flint_pkg::RefreshAlloc)
  `FLINT_COVER(c_copy, st_q == flint_pkg::RefreshCopy)
  `FLINT_COVER(c_commit, st_q == flint_pkg::RefreshCommit)
  `FLINT_COVER(c_settle, st_q == flint_pkg::RefreshSettle)
  `FLINT_COVER(c_vacate, st_q == flint_pkg::RefreshVacate)
  `FLINT_COVER(c_erase, st_q == flint_pkg::RefreshErase)
  `FLINT_COVER(c_halt, st_q == flint_pkg::RefreshHalt)
  `FLINT_COVER(c_halt_no_spare, err_q && code_q == flint_pkg::RefreshErrNoSpare)
endmodule
`default_nettype wire
