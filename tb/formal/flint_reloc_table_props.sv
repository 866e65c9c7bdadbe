// Formal property wrapper of flint_reloc_table (docs/formal.md; run by scripts/formal.py).
// "The relocation table stays a bijection with its free pool", proven by induction at every cycle
// after the reset sweep:
//   - every logical (die, plane l, block b) maps to a physical block of its die whose reverse word
//     is Mapped and names (l, b) back, and every Mapped reverse word is the image of the logical
//     block it names: a bijection from the logical blocks onto the Mapped physical blocks;
//   - every other physical block is in exactly one of Free (the pool), Reserved, Vacated, Bad (its
//     reverse word holds one of those codes, never an undefined one), with a zero owner unless
//     Reserved; a Reserved block sits on the phantom plane of the block index it is reserved for,
//     that (die, block index) is pending, and a pending (die, b) has exactly one Reserved block;
//   - the Planes copies of a block index are on distinct planes, none the phantom plane;
//   - a Release of a Reserved or Vacated block puts it into the pool (Free) in the next cycle;
//   - a Bad block stays Bad (never back in the pool, never mapped or reserved);
//   - a lookup answers the mapping (and the phantom plane) as it stands in the cycle the lookup
//     is accepted, so one accepted from a Commit's response cycle on sees the new mapping;
//   - the module's own assertions (handshakes, a_lk_not_phantom, a_commit_on_phantom, ...).
// The command FSM's in-between states have invariants of their own (below, "phases"): what the
// read registers hold, the reservation an Alloc has not yet made, and in StVacate (between
// Commit's two writes) the source block, already unmapped by the forward write, counted as
// Vacated: the bijection holds on that view, and the raw word still names the logical block.
// tap_* inputs are bound by scripts/formal.py to the module's internal registers and SRAM words.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
// Index arithmetic in int unsigned, and e_not_pool used only by the broken property.
/* verilator lint_off UNUSEDSIGNAL */
module flint_reloc_table_props #(
  parameter int unsigned Dies   = 1,
  parameter int unsigned Planes = 2,
  parameter int unsigned Blocks = 2,
  // do not override
  localparam int unsigned PhysPlanes    = Planes + 1,
  localparam int unsigned DieBits       = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned PlaneBits     = (Planes > 1) ? $clog2(Planes) : 1,
  localparam int unsigned PhysPlaneBits = $clog2(PhysPlanes),
  localparam int unsigned BlockBits     = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned FwdEntries    = Dies * Planes * Blocks,
  localparam int unsigned RevEntries    = Dies * PhysPlanes * Blocks,
  localparam int unsigned PmEntries     = Dies * Blocks,
  localparam int unsigned PmAddrBits    = (PmEntries > 1) ? $clog2(PmEntries) : 1,
  localparam int unsigned FwdWidth      = PhysPlaneBits + BlockBits,
  localparam int unsigned RevWidth      = flint_pkg::BlkStateWidth + PlaneBits + BlockBits,
  localparam int unsigned PmWidth       = 1 + PhysPlaneBits
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      lk_valid_i,
  input logic [DieBits-1:0]        lk_die_i,
  input logic [PlaneBits-1:0]      lk_plane_i,
  input logic [BlockBits-1:0]      lk_block_i,
  input logic                      lk_rsp_ready_i,
  input logic                      cmd_valid_i,
  input flint_pkg::reloc_cmd_e     cmd_op_i,
  input logic [DieBits-1:0]        cmd_die_i,
  input logic [PhysPlaneBits-1:0]  cmd_plane_i,
  input logic [BlockBits-1:0]      cmd_block_i,
  input logic                      cmd_rsp_ready_i,
  // bound to internals by scripts/formal.py
  input logic [3:0]                tap_st,
  input logic [2:0]                tap_op,
  input logic [DieBits-1:0]        tap_die,
  input logic [PhysPlaneBits-1:0]  tap_plane,
  input logic [BlockBits-1:0]      tap_block,
  input logic [PlaneBits-1:0]      tap_l,
  input logic [BlockBits-1:0]      tap_b,
  input logic [PhysPlaneBits-1:0]  tap_h,
  input logic [BlockBits-1:0]      tap_scan,
  input logic [PhysPlaneBits-1:0]  tap_src_plane,
  input logic [BlockBits-1:0]      tap_src_block,
  input logic [DieBits-1:0]        tap_ini_die,
  input logic [PhysPlaneBits-1:0]  tap_ini_plane,
  input logic [BlockBits-1:0]      tap_ini_block,
  input logic                      tap_rsp_valid,
  input logic                      tap_lk_fresh,
  input logic [FwdWidth+PhysPlaneBits-1:0] tap_lk_hold,  // the lookup answer held
  input logic                      tap_pm_busy,    // the plane map's sweep
  input logic [PmAddrBits-1:0]     tap_pm_sweep,
  input logic [FwdWidth-1:0]       tap_fwd_rd,     // the SRAMs' read registers
  input logic [RevWidth-1:0]       tap_rev_rd,
  input logic [PmWidth-1:0]        tap_pm_rd,
  input logic [FwdEntries*FwdWidth-1:0] tap_fwd,   // the SRAM words, word a at [a*W +: W]
  input logic [RevEntries*RevWidth-1:0] tap_rev,
  input logic [PmEntries*PmWidth-1:0]   tap_pm
);
  logic busy, lk_ready, lk_rsp_valid, cmd_ready, cmd_rsp_valid;
  logic [PhysPlaneBits-1:0] lk_rsp_plane, lk_rsp_phantom, cmd_rsp_plane;
  logic [BlockBits-1:0] lk_rsp_block, cmd_rsp_block, cmd_rsp_lblock;
  logic [PlaneBits-1:0] cmd_rsp_lplane;
  flint_pkg::ftl_status_e cmd_rsp_status;
  flint_pkg::blk_state_e cmd_rsp_state;

  flint_reloc_table #(
    .Dies(Dies), .Planes(Planes), .Blocks(Blocks)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .busy_o          (busy),
    .lk_valid_i,
    .lk_ready_o      (lk_ready),
    .lk_die_i,
    .lk_plane_i,
    .lk_block_i,
    .lk_rsp_valid_o  (lk_rsp_valid),
    .lk_rsp_ready_i,
    .lk_rsp_plane_o  (lk_rsp_plane),
    .lk_rsp_block_o  (lk_rsp_block),
    .lk_rsp_phantom_o(lk_rsp_phantom),
    .cmd_valid_i,
    .cmd_ready_o     (cmd_ready),
    .cmd_op_i,
    .cmd_die_i,
    .cmd_plane_i,
    .cmd_block_i,
    .cmd_rsp_valid_o (cmd_rsp_valid),
    .cmd_rsp_ready_i,
    .cmd_rsp_status_o(cmd_rsp_status),
    .cmd_rsp_state_o (cmd_rsp_state),
    .cmd_rsp_plane_o (cmd_rsp_plane),
    .cmd_rsp_block_o (cmd_rsp_block),
    .cmd_rsp_lplane_o(cmd_rsp_lplane),
    .cmd_rsp_lblock_o(cmd_rsp_lblock)
  );
  logic unused;
  assign unused = ^{busy, cmd_rsp_valid, cmd_rsp_status,
                    cmd_rsp_state, cmd_rsp_plane, cmd_rsp_block, cmd_rsp_lblock, cmd_rsp_lplane};

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  // Environment: the module's input rules (it asserts them: a_lk_in_range, a_lk_stable,
  // a_cmd_stable): a lookup names a real logical block; a request waiting for ready stays.
  logic past_lk_wait_q, past_cmd_wait_q;
  logic [DieBits+PlaneBits+BlockBits-1:0] past_lk_q;
  logic [3+DieBits+PhysPlaneBits+BlockBits-1:0] past_cmd_q;
  always @(posedge clk_i) begin
    past_lk_wait_q  <= rst_ni && lk_valid_i && !lk_ready;
    past_cmd_wait_q <= rst_ni && cmd_valid_i && !cmd_ready;
    past_lk_q       <= {lk_die_i, lk_plane_i, lk_block_i};
    past_cmd_q      <= {cmd_op_i, cmd_die_i, cmd_plane_i, cmd_block_i};
  end
  always @(*) begin
    if (lk_valid_i) begin
      assume (32'(lk_die_i) < Dies && 32'(lk_plane_i) < Planes && 32'(lk_block_i) < Blocks);
    end
    if (rst_ni && past_lk_wait_q) begin
      assume (lk_valid_i && {lk_die_i, lk_plane_i, lk_block_i} == past_lk_q);
    end
    if (rst_ni && past_cmd_wait_q) begin
      assume (cmd_valid_i && {cmd_op_i, cmd_die_i, cmd_plane_i, cmd_block_i} == past_cmd_q);
    end
  end

  // The FSM's states (flint_reloc_table's state_e, in order).
  localparam logic [3:0] StInit = 4'd0, StIdle = 4'd1, StAllocRd = 4'd2, StAlloc = 4'd3,
                         StScan = 4'd4, StCmdRead = 4'd5, StCommitRd = 4'd6, StCommit = 4'd7,
                         StVacate = 4'd8;
  localparam logic [2:0] SFree = 3'd0, SMapped = 3'd1, SReserved = 3'd2, SVacated = 3'd3,
                         SBad = 3'd4;

  // Word indices and fields, as the module lays them out.
  function automatic int unsigned fwd_i(input int unsigned d, input int unsigned l,
                                        input int unsigned b);
    fwd_i = (d * Planes + l) * Blocks + b;
  endfunction
  function automatic int unsigned rev_i(input int unsigned d, input int unsigned p,
                                        input int unsigned q);
    rev_i = (d * PhysPlanes + p) * Blocks + q;
  endfunction
  function automatic logic [RevWidth-1:0] rword(input logic [2:0] st, input int unsigned l,
                                                input int unsigned b);
    rword = {st, PlaneBits'(l), BlockBits'(b)};
  endfunction

  logic [FwdWidth-1:0] fwd_w[FwdEntries];
  logic [RevWidth-1:0] rev_w[RevEntries];  // raw
  logic [RevWidth-1:0] rev_e[RevEntries];  // the view: in StVacate the source counts as Vacated
  logic [PmWidth-1:0]  pm_w[PmEntries];
  int unsigned vac_i;
  always @(*) begin
    vac_i = rev_i(32'(tap_die), 32'(tap_src_plane), 32'(tap_src_block));
    for (int unsigned a = 0; a < FwdEntries; a++) fwd_w[a] = tap_fwd[a*FwdWidth +: FwdWidth];
    for (int unsigned a = 0; a < RevEntries; a++) begin
      rev_w[a] = tap_rev[a*RevWidth +: RevWidth];
      rev_e[a] = (tap_st == StVacate && a == vac_i) ? rword(SVacated, 0, 0) : rev_w[a];
    end
    for (int unsigned a = 0; a < PmEntries; a++) pm_w[a] = tap_pm[a*PmWidth +: PmWidth];
  end

  // --- the table invariant (outside the sweep) --------------------------------------------------
  logic e_fwd_range, e_fwd_back, e_code, e_mapped_back, e_owner, e_res_phantom, e_res_once,
        e_planes, e_not_pool;
  always @(*) begin
    logic [FwdWidth-1:0] f;
    logic [RevWidth-1:0] r;
    logic [2:0] st;
    int unsigned pp, pb, rl, rb;
    logic [PhysPlanes-1:0] seen;
    logic [1:0] nres;
    e_fwd_range = 1'b0; e_fwd_back = 1'b0; e_code = 1'b0; e_mapped_back = 1'b0;
    e_owner = 1'b0; e_res_phantom = 1'b0; e_res_once = 1'b0; e_planes = 1'b0;
    e_not_pool = 1'b0;
    // Forward: each logical block onto a physical block whose reverse word names it back.
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned l = 0; l < Planes; l++) begin
        for (int unsigned b = 0; b < Blocks; b++) begin
          f = fwd_w[fwd_i(d, l, b)];
          pp = 32'(f[BlockBits +: PhysPlaneBits]);
          pb = 32'(f[0 +: BlockBits]);
          if (pp >= PhysPlanes || pb >= Blocks) e_fwd_range = 1'b1;
          else if (rev_e[rev_i(d, pp, pb)] != rword(SMapped, l, b)) e_fwd_back = 1'b1;
        end
      end
    end
    // Reverse: each physical block in exactly one state; Mapped ones are images of their owner.
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned p = 0; p < PhysPlanes; p++) begin
        for (int unsigned q = 0; q < Blocks; q++) begin
          r = rev_e[rev_i(d, p, q)];
          st = r[RevWidth-1 -: 3];
          rl = 32'(r[BlockBits +: PlaneBits]);
          rb = 32'(r[0 +: BlockBits]);
          if (st > SBad) e_code = 1'b1;
          if (st != SMapped && st != SFree) e_not_pool = 1'b1;
          if (st == SMapped) begin
            if (rl >= Planes || rb >= Blocks ||
                fwd_w[fwd_i(d, rl, rb)] != {PhysPlaneBits'(p), BlockBits'(q)}) begin
              e_mapped_back = 1'b1;
            end
          end else if (st == SReserved) begin
            if (rl >= Planes || rb >= Blocks ||
                pm_w[d * Blocks + rb] != {1'b1, PhysPlaneBits'(p)}) begin
              e_res_phantom = 1'b1;
            end
          end else if (r[0 +: PlaneBits + BlockBits] != '0) begin
            e_owner = 1'b1;
          end
        end
      end
    end
    // Per (die, block index): distinct planes, none the phantom; pending iff one reservation.
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned b = 0; b < Blocks; b++) begin
        seen = '0;
        for (int unsigned l = 0; l < Planes; l++) begin
          pp = 32'(fwd_w[fwd_i(d, l, b)][BlockBits +: PhysPlaneBits]);
          if (pp < PhysPlanes) begin
            if (seen[pp]) e_planes = 1'b1;
            seen[pp] = 1'b1;
          end
        end
        pp = 32'(pm_w[d * Blocks + b][0 +: PhysPlaneBits]);
        if (pp >= PhysPlanes) e_planes = 1'b1;
        else if (seen[pp]) e_planes = 1'b1;
        nres = '0;
        for (int unsigned p = 0; p < PhysPlanes; p++) begin
          for (int unsigned q = 0; q < Blocks; q++) begin
            r = rev_e[rev_i(d, p, q)];
            if (r[RevWidth-1 -: 3] == SReserved && 32'(r[0 +: BlockBits]) == b &&
                nres != 2'd3) begin
              nres = nres + 2'd1;
            end
          end
        end
        if (nres > 2'd1 || pm_w[d * Blocks + b][PhysPlaneBits] != (nres == 2'd1)) begin
          e_res_once = 1'b1;
        end
      end
    end
  end

  // --- the reset sweep --------------------------------------------------------------------------
  int unsigned ini_i;
  logic e_sweep;
  always @(*) begin
    ini_i = rev_i(32'(tap_ini_die), 32'(tap_ini_plane), 32'(tap_ini_block));
    e_sweep = 1'b0;
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned p = 0; p < PhysPlanes; p++) begin
        for (int unsigned q = 0; q < Blocks; q++) begin
          if (rev_i(d, p, q) < ini_i) begin
            if (p < Planes) begin
              if (rev_w[rev_i(d, p, q)] != rword(SMapped, p, q) ||
                  fwd_w[fwd_i(d, p, q)] != {PhysPlaneBits'(p), BlockBits'(q)}) e_sweep = 1'b1;
            end else if (rev_w[rev_i(d, p, q)] != rword(SFree, 0, 0)) begin
              e_sweep = 1'b1;
            end
          end
        end
      end
    end
    for (int unsigned a = 0; a < PmEntries; a++) begin
      if ((!tap_pm_busy || a < 32'(tap_pm_sweep)) && pm_w[a] != {1'b0, PhysPlaneBits'(Planes)}) begin
        e_sweep = 1'b1;
      end
    end
  end

  // --- the command in flight --------------------------------------------------------------------
  int unsigned cmd_rev_i, cmd_fwd_i, cmd_pm_i;
  logic [PmWidth-1:0] cmd_pm;
  always @(*) begin
    cmd_rev_i = rev_i(32'(tap_die), 32'(tap_plane), 32'(tap_block));
    cmd_fwd_i = fwd_i(32'(tap_die), 32'(tap_l), 32'(tap_b));
    cmd_pm_i  = 32'(tap_die) * Blocks + 32'(tap_b);
    cmd_pm    = pm_w[cmd_pm_i];
  end
  logic alloc_phase;
  assign alloc_phase = tap_st == StAllocRd || tap_st == StAlloc || tap_st == StScan;

  // A Release of a Reserved or Vacated block: the block is Free in the next cycle.
  logic rel_q;
  int unsigned rel_i_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rel_q   <= 1'b0;
      rel_i_q <= 0;
    end else begin
      rel_q   <= tap_st == StCmdRead && tap_op == 3'(flint_pkg::RelocCmdRelease) &&
                 (tap_rev_rd[RevWidth-1 -: 3] == SReserved ||
                  tap_rev_rd[RevWidth-1 -: 3] == SVacated);
      rel_i_q <= cmd_rev_i;
    end
  end

  // A lookup answers the mapping and the phantom plane as they stand in the cycle it is accepted
  // (a Commit's writes land at the end of the cycle before its response becomes valid).
  logic [FwdWidth+PhysPlaneBits-1:0] lk_exp_q;
  always @(posedge clk_i) begin
    if (lk_valid_i && lk_ready) begin
      lk_exp_q <= {fwd_w[fwd_i(32'(lk_die_i), 32'(lk_plane_i), 32'(lk_block_i))],
                   pm_w[32'(lk_die_i) * Blocks + 32'(lk_block_i)][0 +: PhysPlaneBits]};
    end
  end

  // Bad blocks leave the pool for good: a word Bad outside the sweep stays Bad.
  logic [RevEntries-1:0] bad_q, bad_now;
  logic bad_valid_q;
  always @(*) begin
    for (int unsigned a = 0; a < RevEntries; a++) bad_now[a] = rev_w[a][RevWidth-1 -: 3] == SBad;
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bad_q       <= '0;
      bad_valid_q <= 1'b0;
    end else begin
      bad_q       <= bad_now;
      bad_valid_q <= tap_st != StInit;
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      if (bad_valid_q) a_bad_stays_bad: assert ((bad_q & ~bad_now) == '0);
      a_state: assert (tap_st <= StVacate);
      if (tap_rsp_valid) a_rsp_idle: assert (tap_st == StIdle || tap_st == StVacate);
      if (tap_lk_fresh) a_lk_fresh: assert (lk_rsp_valid);
      // The lookup answer: the read registers, then the held copy, carry the expected word.
      if (lk_rsp_valid) begin
        a_lk_answer: assert ({lk_rsp_plane, lk_rsp_block, lk_rsp_phantom} == lk_exp_q);
      end
      if (tap_lk_fresh) begin
        a_lk_read: assert ({tap_fwd_rd, tap_pm_rd[0 +: PhysPlaneBits]} == lk_exp_q);
      end
      if (lk_rsp_valid && !tap_lk_fresh) a_lk_held: assert (tap_lk_hold == lk_exp_q);
      if (tap_st == StInit) begin
        // The sweep: the words it passed hold the identity map and a free extra plane; the
        // plane map's sweep runs beside it, one word a cycle from the same reset.
        a_ini_range: assert (32'(tap_ini_die) < Dies && 32'(tap_ini_plane) < PhysPlanes &&
                             32'(tap_ini_block) < Blocks);
        a_ini_quiet: assert (!tap_rsp_valid && !lk_rsp_valid && !tap_lk_fresh);
        a_ini_pm: assert (tap_pm_busy == (ini_i < PmEntries) &&
                          (!tap_pm_busy || 32'(tap_pm_sweep) == ini_i));
        a_ini_tables: assert (!e_sweep);
      end else begin
        a_pm_done: assert (!tap_pm_busy);
`ifndef BREAK_PROP
        // The bijection and its pool.
        a_fwd_range: assert (!e_fwd_range);
        a_fwd_back: assert (!e_fwd_back);
`else
        // Broken on purpose (non-vacuity): claims every block not mapped is in the pool (Free),
        // which a reservation refutes.
        a_fwd_back: assert (!e_fwd_back && !e_not_pool);
`endif
        a_state_code: assert (!e_code);
        a_mapped_back: assert (!e_mapped_back);
        a_owner_zero: assert (!e_owner);
        a_reserved_on_phantom: assert (!e_res_phantom);
        a_pending_iff_one: assert (!e_res_once);
        a_planes_distinct: assert (!e_planes);
      end
      // Phases of a command: what its registers and the SRAM read registers hold.
      if (alloc_phase) begin
        a_alloc_args: assert (tap_op == 3'(flint_pkg::RelocCmdAlloc) && 32'(tap_die) < Dies &&
                              32'(tap_l) < Planes && 32'(tap_b) < Blocks);
      end
      if (tap_st == StAlloc) a_alloc_pm_read: assert (tap_pm_rd == cmd_pm);
      if (tap_st == StScan) begin
        // No reservation yet: the block index is not pending, the scan is on its phantom.
        a_scan_phantom: assert (!cmd_pm[PhysPlaneBits] && tap_h == cmd_pm[0 +: PhysPlaneBits]);
        a_scan_read: assert (tap_rev_rd == rev_w[rev_i(32'(tap_die), 32'(tap_h),
                                                       32'(tap_scan))]);
      end
      if (tap_st == StCmdRead) begin
        a_cmd_args: assert (tap_op != 3'(flint_pkg::RelocCmdAlloc) && 32'(tap_die) < Dies &&
                            32'(tap_plane) < PhysPlanes && 32'(tap_block) < Blocks);
        a_cmd_read: assert (tap_rev_rd == rev_w[cmd_rev_i]);
      end
      if (tap_st == StCommitRd || tap_st == StCommit) begin
        // The reserved block names its logical owner (l, b), read back into the registers.
        a_commit_args: assert (tap_op == 3'(flint_pkg::RelocCmdCommit) && 32'(tap_die) < Dies &&
                               32'(tap_plane) < PhysPlanes && 32'(tap_block) < Blocks &&
                               rev_w[cmd_rev_i] == rword(SReserved, 32'(tap_l), 32'(tap_b)));
      end
      if (tap_st == StCommit) begin
        a_commit_reads: assert (tap_fwd_rd == fwd_w[cmd_fwd_i] && tap_pm_rd == cmd_pm);
      end
      if (tap_st == StVacate) begin
        // Between Commit's two writes: the logical block maps to its new block, the plane map
        // names the source plane as the phantom, the source still names the owner.
        a_vacate_fwd: assert (32'(tap_die) < Dies && 32'(tap_l) < Planes &&
                              fwd_w[cmd_fwd_i] == {tap_plane, tap_block} &&
                              cmd_pm == {1'b0, tap_src_plane});
        a_vacate_src: assert (32'(tap_src_plane) < PhysPlanes && tap_src_plane != tap_plane &&
                              rev_w[vac_i] == rword(SMapped, 32'(tap_l), 32'(tap_b)));
      end
      if (rel_q) a_release_frees: assert (rev_w[rel_i_q] == rword(SFree, 0, 0));
    end
  end
endmodule
`default_nettype wire
