// Block relocation table with its free-block pool (paper section 4.2, docs/ftl.md).
//
// Maps (die, logical plane l, logical block b) -> (physical plane, physical block) of that die,
// with Planes+1 physical planes per die. Out of reset it is the identity (l -> plane l, b -> block
// b) with the extra plane (index Planes) of each die free: the phantom plane of every block index.
// A copy of logical block b always goes to the phantom plane of (die, b) (flint_plane_map), and
// the plane it leaves becomes the new phantom of b, so the Planes copies of block b on a die stay
// on Planes distinct physical planes and a burst costs one sense per plane (each plane may sense
// a different physical block: independent plane addressing, DESIGN.md 6.5).
//
// Tables (flint_sram each; contents not reset, so a sweep writes them after reset):
//   forward  Dies*Planes*Blocks     words {physical plane, physical block}
//   reverse  Dies*(Planes+1)*Blocks words {state, logical plane, logical block}, one per physical
//            block: the free-block pool is the set of BlkFree words; bad blocks are BlkBad
//   plane map (flint_plane_map)     Dies*Blocks words {pending, phantom plane}
// busy_o is high for the Dies*(Planes+1)*Blocks cycles of the sweep after reset.
//
// Lookup port (burst-buffer controller): one (die, logical plane, logical block) per request; the
// answer {physical plane, physical block, phantom plane of the block} comes in the next cycle.
// Back-to-back lookups run at one a cycle; lk_ready_o is low during the sweep and for one cycle
// of each Alloc and Commit (the command reads the shared table ports then).
//
// Command port (refresh controller, model load): one command at a time; the next is accepted
// once the response has been taken.
//   Alloc   (die, logical plane, logical block): reserve a free block on the phantom plane of
//           (die, block); next-fit from a per-die cursor. Answer: the reserved block. FtlBusy if
//           a reservation for (die, block) is outstanding, FtlNoFree if that plane has no free
//           block. Latency 3 + (blocks examined) cycles, at most Blocks + 3.
//   Commit  (die, plane, block) of a reserved block, whose copy is complete: the logical block
//           now maps there, the block it left becomes BlkVacated. Answer: the vacated block.
//   Release (die, plane, block): a vacated block, after its erase, returns to the pool; a
//           reserved block is given back (its copy abandoned).
//   MarkBad (die, plane, block): a free, vacated or reserved block (the reservation is dropped)
//           leaves the pool for good; a mapped block is refused (relocate it first).
//   Query   (die, plane, block): state and logical owner of a physical block.
// Latency (acceptance to first valid response) of the others: Commit 4, Release, MarkBad and
// Query 2, any command with an out-of-range field 1. For lookups a command takes effect in the
// cycle its response first becomes valid: lookups accepted from that cycle on see it, earlier
// ones do not. Errors leave the tables unchanged.
`default_nettype none
`include "flint_assert.svh"
module flint_reloc_table #(
  parameter int unsigned Dies   = flint_cfg_pkg::Dies,
  parameter int unsigned Planes = flint_cfg_pkg::Planes,
  parameter int unsigned Blocks = flint_cfg_pkg::Blocks,
  // do not override
  localparam int unsigned PhysPlanes    = Planes + 1,
  localparam int unsigned DieBits       = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned PlaneBits     = (Planes > 1) ? $clog2(Planes) : 1,
  localparam int unsigned PhysPlaneBits = $clog2(PhysPlanes),
  localparam int unsigned BlockBits     = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned FwdEntries    = Dies * Planes * Blocks,
  localparam int unsigned RevEntries    = Dies * PhysPlanes * Blocks,
  localparam int unsigned FwdAddrBits   = $clog2(FwdEntries),
  localparam int unsigned RevAddrBits   = $clog2(RevEntries),
  localparam int unsigned FwdWidth      = PhysPlaneBits + BlockBits,
  localparam int unsigned RevWidth      = flint_pkg::BlkStateWidth + PlaneBits + BlockBits
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  output logic                      busy_o,
  // lookup request
  input  logic                      lk_valid_i,
  output logic                      lk_ready_o,
  input  logic [DieBits-1:0]        lk_die_i,
  input  logic [PlaneBits-1:0]      lk_plane_i,
  input  logic [BlockBits-1:0]      lk_block_i,
  // lookup response
  output logic                      lk_rsp_valid_o,
  input  logic                      lk_rsp_ready_i,
  output logic [PhysPlaneBits-1:0]  lk_rsp_plane_o,
  output logic [BlockBits-1:0]      lk_rsp_block_o,
  output logic [PhysPlaneBits-1:0]  lk_rsp_phantom_o,
  // command (plane/block are logical for Alloc, physical otherwise)
  input  logic                      cmd_valid_i,
  output logic                      cmd_ready_o,
  input  flint_pkg::reloc_cmd_e     cmd_op_i,
  input  logic [DieBits-1:0]        cmd_die_i,
  input  logic [PhysPlaneBits-1:0]  cmd_plane_i,
  input  logic [BlockBits-1:0]      cmd_block_i,
  // command response: plane/block = the reserved block (Alloc), the vacated block (Commit) or
  // the command's block; state = that block's state before the command; lplane/lblock = its
  // logical owner (mapped or reserved blocks), else zero
  output logic                      cmd_rsp_valid_o,
  input  logic                      cmd_rsp_ready_i,
  output flint_pkg::ftl_status_e    cmd_rsp_status_o,
  output flint_pkg::blk_state_e     cmd_rsp_state_o,
  output logic [PhysPlaneBits-1:0]  cmd_rsp_plane_o,
  output logic [BlockBits-1:0]      cmd_rsp_block_o,
  output logic [PlaneBits-1:0]      cmd_rsp_lplane_o,
  output logic [BlockBits-1:0]      cmd_rsp_lblock_o
);
  typedef enum logic [3:0] {
    StInit,      // sweep: identity map, extra plane free
    StIdle,
    StAllocRd,   // Alloc: read the plane map entry of (die, block)
    StAlloc,     // Alloc: phantom known; start the scan of its plane at the die's cursor
    StScan,      // Alloc: one reverse word a cycle until a free block
    StCmdRead,   // physical commands: reverse word of the named block arrives
    StCommitRd,  // Commit: read forward entry and plane map entry of the logical block
    StCommit,    // Commit: write forward, reverse (destination), plane map
    StVacate     // Commit: write reverse (vacated source)
  } state_e;

  function automatic logic [FwdAddrBits-1:0] fwd_addr(input logic [DieBits-1:0] die,
                                                      input logic [PlaneBits-1:0] plane,
                                                      input logic [BlockBits-1:0] block);
    fwd_addr = FwdAddrBits'((32'(die) * Planes + 32'(plane)) * Blocks + 32'(block));
  endfunction
  function automatic logic [RevAddrBits-1:0] rev_addr(input logic [DieBits-1:0] die,
                                                      input logic [PhysPlaneBits-1:0] plane,
                                                      input logic [BlockBits-1:0] block);
    rev_addr = RevAddrBits'((32'(die) * PhysPlanes + 32'(plane)) * Blocks + 32'(block));
  endfunction
  function automatic flint_pkg::blk_state_e decode_state(
      input logic [flint_pkg::BlkStateWidth-1:0] raw);
    unique case (raw)
      3'd0:    decode_state = flint_pkg::BlkFree;
      3'd1:    decode_state = flint_pkg::BlkMapped;
      3'd2:    decode_state = flint_pkg::BlkReserved;
      3'd3:    decode_state = flint_pkg::BlkVacated;
      default: decode_state = flint_pkg::BlkBad;  // 4; 5..7 are never written (asserted)
    endcase
  endfunction
  function automatic logic [BlockBits-1:0] next_block(input logic [BlockBits-1:0] block);
    if (32'(block) == Blocks - 1) next_block = '0;
    else next_block = block + 1'b1;
  endfunction
  function automatic logic [RevWidth-1:0] rev_word(input flint_pkg::blk_state_e state,
                                                   input logic [PlaneBits-1:0] plane,
                                                   input logic [BlockBits-1:0] block);
    rev_word = {state, plane, block};
  endfunction

  state_e st_q, st_d;
  // Command being executed.
  flint_pkg::reloc_cmd_e op_q;
  logic [DieBits-1:0] die_q;
  logic [PhysPlaneBits-1:0] plane_q;  // physical plane named by the command
  logic [BlockBits-1:0] block_q;      // physical block named by the command
  logic [PlaneBits-1:0] l_q;          // logical owner being moved / reserved for
  logic [BlockBits-1:0] b_q;
  logic [PhysPlaneBits-1:0] h_q;      // Alloc: phantom plane being scanned
  logic [BlockBits-1:0] scan_q, scan_n_q;
  logic [PhysPlaneBits-1:0] src_plane_q;
  logic [BlockBits-1:0] src_block_q;
  logic [Dies*BlockBits-1:0] cursor_q;  // next-fit allocation cursor, one per die
  // Reset sweep.
  logic [DieBits-1:0] ini_die_q;
  logic [PhysPlaneBits-1:0] ini_plane_q;
  logic [BlockBits-1:0] ini_block_q;
  logic ini_last;
  // Command response.
  logic rsp_valid_q, rsp_set;
  flint_pkg::ftl_status_e rsp_status_q, rsp_status_n;
  flint_pkg::blk_state_e rsp_state_q, rsp_state_n;
  logic [PhysPlaneBits-1:0] rsp_plane_q, rsp_plane_n;
  logic [BlockBits-1:0] rsp_block_q, rsp_block_n, rsp_lblock_q, rsp_lblock_n;
  logic [PlaneBits-1:0] rsp_lplane_q, rsp_lplane_n;
  // Lookup response.
  logic lk_rsp_valid_q, lk_fresh_q;
  logic [FwdWidth+PhysPlaneBits-1:0] lk_hold_q, lk_word;

  // Table ports.
  logic fwd_rd_en, fwd_wr_en;
  logic [FwdAddrBits-1:0] fwd_rd_addr, fwd_wr_addr;
  logic [FwdWidth-1:0] fwd_rd_data, fwd_wr_data;
  logic rev_rd_en, rev_wr_en;
  logic [RevAddrBits-1:0] rev_rd_addr, rev_wr_addr;
  logic [RevWidth-1:0] rev_rd_data, rev_wr_data;
  logic pm_busy, pm_rd_en, pm_rd_pending, pm_wr_en, pm_wr_pending;
  logic [DieBits-1:0] pm_rd_die, pm_wr_die;
  logic [BlockBits-1:0] pm_rd_block, pm_wr_block;
  logic [PhysPlaneBits-1:0] pm_rd_phantom, pm_wr_phantom;
  logic [PhysPlanes-1:0] pm_rd_stripe;

  // Fields of the words read.
  flint_pkg::blk_state_e rev_state;
  logic [PlaneBits-1:0] rev_l;
  logic [BlockBits-1:0] rev_b;
  logic [PhysPlaneBits-1:0] fwd_plane;
  logic [BlockBits-1:0] fwd_block;
  assign rev_state = decode_state(rev_rd_data[RevWidth-1 -: flint_pkg::BlkStateWidth]);
  assign rev_l     = rev_rd_data[BlockBits +: PlaneBits];
  assign rev_b     = rev_rd_data[0 +: BlockBits];
  assign fwd_plane = fwd_rd_data[BlockBits +: PhysPlaneBits];
  assign fwd_block = fwd_rd_data[0 +: BlockBits];

  logic cmd_fire, cmd_in_range, lk_fire, fsm_reads_shared;
  logic [BlockBits-1:0] die_cursor;
  assign die_cursor  = cursor_q[32'(die_q) * BlockBits +: BlockBits];
  assign cmd_ready_o = (st_q == StIdle) && !rsp_valid_q;
  assign cmd_fire    = cmd_valid_i && cmd_ready_o;
  assign cmd_in_range = 32'(cmd_die_i) < Dies && 32'(cmd_block_i) < Blocks &&
                        32'(cmd_plane_i) < ((cmd_op_i == flint_pkg::RelocCmdAlloc) ? Planes
                                                                                   : PhysPlanes);
  // The FSM reads the forward table and the plane map in these states: no lookup then.
  assign fsm_reads_shared = (st_q == StAllocRd) || (st_q == StCommitRd);
  assign lk_ready_o = (st_q != StInit) && !pm_busy && !fsm_reads_shared &&
                      (!lk_rsp_valid_q || lk_rsp_ready_i);
  assign lk_fire = lk_valid_i && lk_ready_o;
  assign ini_last = 32'(ini_die_q) == Dies - 1 && 32'(ini_plane_q) == PhysPlanes - 1 &&
                    32'(ini_block_q) == Blocks - 1;

  // Shared read ports: the lookup, unless the FSM reads.
  always_comb begin
    fwd_rd_en   = lk_fire;
    fwd_rd_addr = fwd_addr(lk_die_i, lk_plane_i, lk_block_i);
    pm_rd_en    = lk_fire;
    pm_rd_die   = lk_die_i;
    pm_rd_block = lk_block_i;
    if (st_q == StAllocRd) begin
      pm_rd_en    = 1'b1;
      pm_rd_die   = die_q;
      pm_rd_block = b_q;
    end else if (st_q == StCommitRd) begin
      fwd_rd_en   = 1'b1;
      fwd_rd_addr = fwd_addr(die_q, l_q, b_q);
      pm_rd_en    = 1'b1;
      pm_rd_die   = die_q;
      pm_rd_block = b_q;
    end
  end

  always_comb begin
    st_d = st_q;
    rsp_set      = 1'b0;
    rsp_status_n = flint_pkg::FtlOk;
    rsp_state_n  = flint_pkg::BlkFree;
    rsp_plane_n  = '0;
    rsp_block_n  = '0;
    rsp_lplane_n = '0;
    rsp_lblock_n = '0;
    rev_rd_en   = 1'b0;
    rev_rd_addr = '0;
    fwd_wr_en   = 1'b0;
    fwd_wr_addr = '0;
    fwd_wr_data = '0;
    rev_wr_en   = 1'b0;
    rev_wr_addr = '0;
    rev_wr_data = '0;
    pm_wr_en      = 1'b0;
    pm_wr_die     = die_q;
    pm_wr_block   = b_q;
    pm_wr_phantom = '0;
    pm_wr_pending = 1'b0;
    unique case (st_q)
      StInit: begin
        rev_wr_en   = 1'b1;
        rev_wr_addr = rev_addr(ini_die_q, ini_plane_q, ini_block_q);
        rev_wr_data = (32'(ini_plane_q) < Planes)
                    ? rev_word(flint_pkg::BlkMapped, PlaneBits'(ini_plane_q), ini_block_q)
                    : rev_word(flint_pkg::BlkFree, '0, '0);
        fwd_wr_en   = 32'(ini_plane_q) < Planes;
        fwd_wr_addr = fwd_addr(ini_die_q, PlaneBits'(ini_plane_q), ini_block_q);
        fwd_wr_data = {ini_plane_q, ini_block_q};
        if (ini_last) st_d = StIdle;
      end
      StIdle: begin
        if (cmd_fire) begin
          if (!cmd_in_range) begin
            rsp_set      = 1'b1;
            rsp_status_n = flint_pkg::FtlOutOfRange;
            rsp_plane_n  = cmd_plane_i;
            rsp_block_n  = cmd_block_i;
          end else if (cmd_op_i == flint_pkg::RelocCmdAlloc) begin
            st_d = StAllocRd;
          end else begin
            rev_rd_en   = 1'b1;
            rev_rd_addr = rev_addr(cmd_die_i, cmd_plane_i, cmd_block_i);
            st_d = StCmdRead;
          end
        end
      end
      StAllocRd: st_d = StAlloc;
      StAlloc: begin
        if (pm_rd_pending) begin
          rsp_set      = 1'b1;
          rsp_status_n = flint_pkg::FtlBusy;
          rsp_plane_n  = pm_rd_phantom;
          rsp_lplane_n = l_q;
          rsp_lblock_n = b_q;
          st_d = StIdle;
        end else begin
          rev_rd_en   = 1'b1;
          rev_rd_addr = rev_addr(die_q, pm_rd_phantom, die_cursor);
          st_d = StScan;
        end
      end
      StScan: begin
        if (rev_state == flint_pkg::BlkFree) begin
          rev_wr_en     = 1'b1;
          rev_wr_addr   = rev_addr(die_q, h_q, scan_q);
          rev_wr_data   = rev_word(flint_pkg::BlkReserved, l_q, b_q);
          pm_wr_en      = 1'b1;
          pm_wr_phantom = h_q;
          pm_wr_pending = 1'b1;
          rsp_set      = 1'b1;
          rsp_state_n  = flint_pkg::BlkFree;
          rsp_plane_n  = h_q;
          rsp_block_n  = scan_q;
          rsp_lplane_n = l_q;
          rsp_lblock_n = b_q;
          st_d = StIdle;
        end else if (32'(scan_n_q) == Blocks - 1) begin
          rsp_set      = 1'b1;
          rsp_status_n = flint_pkg::FtlNoFree;
          rsp_plane_n  = h_q;
          rsp_lplane_n = l_q;
          rsp_lblock_n = b_q;
          st_d = StIdle;
        end else begin
          rev_rd_en   = 1'b1;
          rev_rd_addr = rev_addr(die_q, h_q, next_block(scan_q));
        end
      end
      StCmdRead: begin
        rsp_set     = 1'b1;
        rsp_state_n = rev_state;
        rsp_plane_n = plane_q;
        rsp_block_n = block_q;
        if (rev_state == flint_pkg::BlkMapped || rev_state == flint_pkg::BlkReserved) begin
          rsp_lplane_n = rev_l;
          rsp_lblock_n = rev_b;
        end
        st_d = StIdle;
        unique case (op_q)
          flint_pkg::RelocCmdCommit: begin
            if (rev_state == flint_pkg::BlkReserved) begin
              rsp_set = 1'b0;  // answered from StCommit
              st_d = StCommitRd;
            end else begin
              rsp_status_n = flint_pkg::FtlWrongState;
            end
          end
          flint_pkg::RelocCmdRelease: begin
            if (rev_state == flint_pkg::BlkReserved || rev_state == flint_pkg::BlkVacated) begin
              rev_wr_en   = 1'b1;
              rev_wr_addr = rev_addr(die_q, plane_q, block_q);
              rev_wr_data = rev_word(flint_pkg::BlkFree, '0, '0);
            end else begin
              rsp_status_n = flint_pkg::FtlWrongState;
            end
          end
          flint_pkg::RelocCmdMarkBad: begin
            if (rev_state == flint_pkg::BlkMapped) begin
              rsp_status_n = flint_pkg::FtlWrongState;
            end else if (rev_state != flint_pkg::BlkBad) begin
              rev_wr_en   = 1'b1;
              rev_wr_addr = rev_addr(die_q, plane_q, block_q);
              rev_wr_data = rev_word(flint_pkg::BlkBad, '0, '0);
            end
          end
          default: ;  // Query: the answer only
        endcase
        // Giving up a reservation clears the pending flag of its (die, block); the reserved
        // block sits on that block's phantom plane, which does not change.
        if (rev_state == flint_pkg::BlkReserved &&
            (op_q == flint_pkg::RelocCmdRelease || op_q == flint_pkg::RelocCmdMarkBad)) begin
          pm_wr_en      = 1'b1;
          pm_wr_block   = rev_b;
          pm_wr_phantom = plane_q;
          pm_wr_pending = 1'b0;
        end
      end
      StCommitRd: st_d = StCommit;
      StCommit: begin
        fwd_wr_en   = 1'b1;
        fwd_wr_addr = fwd_addr(die_q, l_q, b_q);
        fwd_wr_data = {plane_q, block_q};
        rev_wr_en   = 1'b1;
        rev_wr_addr = rev_addr(die_q, plane_q, block_q);
        rev_wr_data = rev_word(flint_pkg::BlkMapped, l_q, b_q);
        // The plane the block leaves is now the one that holds no copy of block b.
        pm_wr_en      = 1'b1;
        pm_wr_phantom = fwd_plane;
        pm_wr_pending = 1'b0;
        rsp_set      = 1'b1;
        rsp_state_n  = flint_pkg::BlkReserved;
        rsp_plane_n  = fwd_plane;
        rsp_block_n  = fwd_block;
        rsp_lplane_n = l_q;
        rsp_lblock_n = b_q;
        st_d = StVacate;
      end
      StVacate: begin
        rev_wr_en   = 1'b1;
        rev_wr_addr = rev_addr(die_q, src_plane_q, src_block_q);
        rev_wr_data = rev_word(flint_pkg::BlkVacated, '0, '0);
        st_d = StIdle;
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q        <= StInit;
      op_q        <= flint_pkg::RelocCmdQuery;
      die_q       <= '0;
      plane_q     <= '0;
      block_q     <= '0;
      l_q         <= '0;
      b_q         <= '0;
      h_q         <= '0;
      scan_q      <= '0;
      scan_n_q    <= '0;
      src_plane_q <= '0;
      src_block_q <= '0;
      cursor_q    <= '0;
      ini_die_q   <= '0;
      ini_plane_q <= '0;
      ini_block_q <= '0;
      rsp_valid_q  <= 1'b0;
      rsp_status_q <= flint_pkg::FtlOk;
      rsp_state_q  <= flint_pkg::BlkFree;
      rsp_plane_q  <= '0;
      rsp_block_q  <= '0;
      rsp_lplane_q <= '0;
      rsp_lblock_q <= '0;
      lk_rsp_valid_q <= 1'b0;
      lk_fresh_q     <= 1'b0;
      lk_hold_q      <= '0;
    end else begin
      st_q <= st_d;
      if (st_q == StInit) begin
        ini_block_q <= next_block(ini_block_q);
        if (32'(ini_block_q) == Blocks - 1) begin
          ini_plane_q <= (32'(ini_plane_q) == PhysPlanes - 1) ? '0 : ini_plane_q + 1'b1;
          if (32'(ini_plane_q) == PhysPlanes - 1) ini_die_q <= ini_die_q + 1'b1;
        end
      end
      if (cmd_fire) begin
        op_q    <= cmd_op_i;
        die_q   <= cmd_die_i;
        plane_q <= cmd_plane_i;
        block_q <= cmd_block_i;
        l_q     <= PlaneBits'(cmd_plane_i);  // Alloc names the logical block
        b_q     <= cmd_block_i;
      end
      if (st_q == StAlloc) begin
        h_q      <= pm_rd_phantom;
        scan_q   <= die_cursor;
        scan_n_q <= '0;
      end
      if (st_q == StScan) begin
        scan_q   <= next_block(scan_q);
        scan_n_q <= scan_n_q + 1'b1;
        if (rev_state == flint_pkg::BlkFree) begin
          cursor_q[32'(die_q) * BlockBits +: BlockBits] <= next_block(scan_q);
        end
      end
      if (st_q == StCmdRead) begin
        l_q <= rev_l;
        b_q <= rev_b;
      end
      if (st_q == StCommit) begin
        src_plane_q <= fwd_plane;
        src_block_q <= fwd_block;
      end
      if (rsp_set) begin
        rsp_valid_q  <= 1'b1;
        rsp_status_q <= rsp_status_n;
        rsp_state_q  <= rsp_state_n;
        rsp_plane_q  <= rsp_plane_n;
        rsp_block_q  <= rsp_block_n;
        rsp_lplane_q <= rsp_lplane_n;
        rsp_lblock_q <= rsp_lblock_n;
      end else if (cmd_rsp_ready_i) begin
        rsp_valid_q <= 1'b0;
      end
      if (lk_fire) lk_rsp_valid_q <= 1'b1;
      else if (lk_rsp_ready_i) lk_rsp_valid_q <= 1'b0;
      lk_fresh_q <= lk_fire;
      if (lk_fresh_q) lk_hold_q <= {fwd_rd_data, pm_rd_phantom};
    end
  end

  flint_sram #(
    .Width(FwdWidth),
    .Depth(FwdEntries)
  ) u_fwd (
    .clk_i,
    .rd_en_i  (fwd_rd_en),
    .rd_addr_i(fwd_rd_addr),
    .rd_data_o(fwd_rd_data),
    .wr_en_i  (fwd_wr_en),
    .wr_addr_i(fwd_wr_addr),
    .wr_data_i(fwd_wr_data)
  );

  flint_sram #(
    .Width(RevWidth),
    .Depth(RevEntries)
  ) u_rev (
    .clk_i,
    .rd_en_i  (rev_rd_en),
    .rd_addr_i(rev_rd_addr),
    .rd_data_o(rev_rd_data),
    .wr_en_i  (rev_wr_en),
    .wr_addr_i(rev_wr_addr),
    .wr_data_i(rev_wr_data)
  );

  flint_plane_map #(
    .Dies  (Dies),
    .Planes(Planes),
    .Blocks(Blocks)
  ) u_plane_map (
    .clk_i,
    .rst_ni,
    .busy_o      (pm_busy),
    .rd_en_i     (pm_rd_en),
    .rd_die_i    (pm_rd_die),
    .rd_block_i  (pm_rd_block),
    .rd_phantom_o(pm_rd_phantom),
    .rd_pending_o(pm_rd_pending),
    .rd_stripe_o (pm_rd_stripe),
    .wr_en_i     (pm_wr_en),
    .wr_die_i    (pm_wr_die),
    .wr_block_i  (pm_wr_block),
    .wr_phantom_i(pm_wr_phantom),
    .wr_pending_i(pm_wr_pending)
  );

  assign lk_word          = lk_fresh_q ? {fwd_rd_data, pm_rd_phantom} : lk_hold_q;
  assign lk_rsp_valid_o   = lk_rsp_valid_q;
  assign lk_rsp_plane_o   = lk_word[PhysPlaneBits + BlockBits +: PhysPlaneBits];
  assign lk_rsp_block_o   = lk_word[PhysPlaneBits +: BlockBits];
  assign lk_rsp_phantom_o = lk_word[0 +: PhysPlaneBits];
  assign cmd_rsp_valid_o  = rsp_valid_q;
  assign cmd_rsp_status_o = rsp_status_q;
  assign cmd_rsp_state_o  = rsp_state_q;
  assign cmd_rsp_plane_o  = rsp_plane_q;
  assign cmd_rsp_block_o  = rsp_block_q;
  assign cmd_rsp_lplane_o = rsp_lplane_q;
  assign cmd_rsp_lblock_o = rsp_lblock_q;
  assign busy_o = (st_q == StInit);

  logic unused_stripe;
  assign unused_stripe = ^pm_rd_stripe;  // the lookup answers with the phantom plane instead

`ifndef SYNTHESIS
  // Handshakes (STYLE.md): requests and responses hold while they wait; a request offered
  // during reset does not count.
  `FLINT_ASSERT_IMPLY(a_lk_stable, $past(rst_ni && lk_valid_i && !lk_ready_o),
                      lk_valid_i && lk_die_i == $past(lk_die_i) &&
                      lk_plane_i == $past(lk_plane_i) && lk_block_i == $past(lk_block_i))
  `FLINT_ASSERT_IMPLY(a_cmd_stable, $past(rst_ni && cmd_valid_i && !cmd_ready_o),
                      cmd_valid_i && cmd_op_i == $past(cmd_op_i) && cmd_die_i == $past(cmd_die_i)
                      && cmd_plane_i == $past(cmd_plane_i) && cmd_block_i == $past(cmd_block_i))
  `FLINT_ASSERT_IMPLY(a_lk_rsp_stable, $past(lk_rsp_valid_o && !lk_rsp_ready_i),
                      lk_rsp_valid_o && lk_rsp_plane_o == $past(lk_rsp_plane_o) &&
                      lk_rsp_block_o == $past(lk_rsp_block_o) &&
                      lk_rsp_phantom_o == $past(lk_rsp_phantom_o))
  `FLINT_ASSERT_IMPLY(a_cmd_rsp_stable, $past(cmd_rsp_valid_o && !cmd_rsp_ready_i),
                      cmd_rsp_valid_o && cmd_rsp_status_o == $past(cmd_rsp_status_o) &&
                      cmd_rsp_state_o == $past(cmd_rsp_state_o) &&
                      cmd_rsp_plane_o == $past(cmd_rsp_plane_o) &&
                      cmd_rsp_block_o == $past(cmd_rsp_block_o) &&
                      cmd_rsp_lplane_o == $past(cmd_rsp_lplane_o) &&
                      cmd_rsp_lblock_o == $past(cmd_rsp_lblock_o))
  `FLINT_ASSERT_IMPLY(a_lk_one_cycle, $past(rst_ni && lk_fire), lk_rsp_valid_o)
  // A lookup names a real logical block (the geometry fields are exact powers of two).
  `FLINT_ASSERT_IMPLY(a_lk_in_range, lk_valid_i,
                      32'(lk_die_i) < Dies && 32'(lk_plane_i) < Planes && 32'(lk_block_i) < Blocks)
  // The phantom plane of a block never appears in its read stripe.
  `FLINT_ASSERT_IMPLY(a_lk_not_phantom, lk_rsp_valid_o,
                      lk_rsp_plane_o != lk_rsp_phantom_o && 32'(lk_rsp_plane_o) < PhysPlanes &&
                      32'(lk_rsp_phantom_o) < PhysPlanes)
  // Only one client of each shared read port at a time.
  `FLINT_ASSERT_IMPLY(a_no_read_clash, fsm_reads_shared, !lk_fire)
  // A commit lands on the phantom plane of its block, which had the reservation pending.
  `FLINT_ASSERT_IMPLY(a_commit_on_phantom, st_q == StCommit,
                      pm_rd_pending && pm_rd_phantom == plane_q && fwd_plane != plane_q)
  `FLINT_ASSERT_IMPLY(a_state_code, st_q == StCmdRead || st_q == StScan,
                      rev_rd_data[RevWidth-1 -: flint_pkg::BlkStateWidth] <= 3'd4)
  `FLINT_COVER(c_alloc_no_free, rsp_set && rsp_status_n == flint_pkg::FtlNoFree)
  `FLINT_COVER(c_alloc_busy, rsp_set && rsp_status_n == flint_pkg::FtlBusy)
  `FLINT_COVER(c_lookup_during_commit, lk_fire && st_q == StCommit)
  // Each command accepted in range, and the outcome of each: a reservation made, a commit, a
  // release of a vacated and of a reserved block, a block marked bad from free, reserved and
  // vacated, and every refusal (out of range, wrong state per command).
  `FLINT_COVER(c_cmd_alloc, cmd_fire && cmd_in_range && cmd_op_i == flint_pkg::RelocCmdAlloc)
  `FLINT_COVER(c_cmd_commit, cmd_fire && cmd_in_range && cmd_op_i == flint_pkg::RelocCmdCommit)
  `FLINT_COVER(c_cmd_release, cmd_fire && cmd_in_range &&
                              cmd_op_i == flint_pkg::RelocCmdRelease)
  `FLINT_COVER(c_cmd_mark_bad, cmd_fire && cmd_in_range &&
                               cmd_op_i == flint_pkg::RelocCmdMarkBad)
  `FLINT_COVER(c_cmd_query, cmd_fire && cmd_in_range && cmd_op_i == flint_pkg::RelocCmdQuery)
  `FLINT_COVER(c_cmd_out_of_range, rsp_set && rsp_status_n == flint_pkg::FtlOutOfRange)
  `FLINT_COVER(c_alloc_reserved, st_q == StScan && rsp_set && rsp_status_n == flint_pkg::FtlOk)
  `FLINT_COVER(c_alloc_scan_wraps, st_q == StScan && rev_state != flint_pkg::BlkFree &&
                                   32'(scan_q) == Blocks - 1 && 32'(scan_n_q) != Blocks - 1)
  `FLINT_COVER(c_commit_done, st_q == StCommit)
  `FLINT_COVER(c_commit_wrong_state, st_q == StCmdRead && op_q == flint_pkg::RelocCmdCommit &&
                                     rsp_status_n == flint_pkg::FtlWrongState)
  `FLINT_COVER(c_release_vacated, st_q == StCmdRead && op_q == flint_pkg::RelocCmdRelease &&
                                  rev_state == flint_pkg::BlkVacated)
  `FLINT_COVER(c_release_reserved, st_q == StCmdRead && op_q == flint_pkg::RelocCmdRelease &&
                                   rev_state == flint_pkg::BlkReserved)
  `FLINT_COVER(c_release_wrong_state, st_q == StCmdRead &&
                                      op_q == flint_pkg::RelocCmdRelease &&
                                      rsp_status_n == flint_pkg::FtlWrongState)
  `FLINT_COVER(c_mark_bad_free, st_q == StCmdRead && op_q == flint_pkg::RelocCmdMarkBad &&
                                rev_state == flint_pkg::BlkFree)
  `FLINT_COVER(c_mark_bad_reserved, st_q == StCmdRead && op_q == flint_pkg::RelocCmdMarkBad &&
                                    rev_state == flint_pkg::BlkReserved)
  `FLINT_COVER(c_mark_bad_vacated, st_q == StCmdRead && op_q == flint_pkg::RelocCmdMarkBad &&
                                   rev_state == flint_pkg::BlkVacated)
  `FLINT_COVER(c_mark_bad_again, st_q == StCmdRead && op_q == flint_pkg::RelocCmdMarkBad &&
                                 rev_state == flint_pkg::BlkBad)
  `FLINT_COVER(c_mark_bad_mapped, st_q == StCmdRead && op_q == flint_pkg::RelocCmdMarkBad &&
                                  rsp_status_n == flint_pkg::FtlWrongState)
  // Lookups held off by the FSM's table reads; a command response held by back-pressure.
  `FLINT_COVER(c_lookup_refused_fsm, lk_valid_i && fsm_reads_shared)
  `FLINT_COVER(c_cmd_rsp_held, cmd_rsp_valid_o && !cmd_rsp_ready_i)

  // Whole-table invariants, checked after every command that changes a table (and after the
  // sweep) on shadow copies written with the same enables as the SRAMs:
  //   1 every logical block maps to a physical plane of its die,
  //   2 ... onto a block whose reverse word is Mapped to that same logical block,
  //   3 exactly Dies*Planes*Blocks blocks are Mapped (with 2: a bijection from the logical
  //     blocks onto the Mapped blocks, so never onto a free, reserved, vacated or bad block),
  //   4 the Planes copies of each (die, block index) sit on distinct planes, none of them the
  //     phantom plane of that block index,
  //   5 a (die, block index) is pending iff exactly one block is Reserved for it, on its phantom,
  //   6 no reverse word holds an undefined state code.
  logic [FwdWidth-1:0] fwd_sh[FwdEntries];
  logic [RevWidth-1:0] rev_sh[RevEntries];
  logic [PhysPlaneBits:0] pm_sh[Dies*Blocks];
  // One write per array and block: Verilator then delays single elements, not whole arrays.
  logic pm_sh_en;
  localparam int unsigned PmAddrBits = $clog2(Dies * Blocks);
  logic [PmAddrBits-1:0] pm_sh_idx;
  logic [PhysPlaneBits:0] pm_sh_data;
  always_comb begin
    pm_sh_en   = pm_wr_en;
    pm_sh_idx  = PmAddrBits'(32'(pm_wr_die) * Blocks + 32'(pm_wr_block));
    pm_sh_data = {pm_wr_pending, pm_wr_phantom};
    if (st_q == StInit) begin  // mirrors the plane map's own sweep
      pm_sh_en   = ini_plane_q == '0;
      pm_sh_idx  = PmAddrBits'(32'(ini_die_q) * Blocks + 32'(ini_block_q));
      pm_sh_data = {1'b0, PhysPlaneBits'(Planes)};
    end
  end
  always_ff @(posedge clk_i) begin
    if (fwd_wr_en) fwd_sh[fwd_wr_addr] <= fwd_wr_data;
  end
  always_ff @(posedge clk_i) begin
    if (rev_wr_en) rev_sh[rev_wr_addr] <= rev_wr_data;
  end
  always_ff @(posedge clk_i) begin
    if (pm_sh_en) pm_sh[pm_sh_idx] <= pm_sh_data;
  end

  function automatic int unsigned table_error();
    int unsigned mapped;
    int unsigned reserved_n[Dies*Blocks];
    logic [PhysPlanes-1:0] seen;
    logic [FwdWidth-1:0] f;
    logic [RevWidth-1:0] r;
    int unsigned pp, pb, ph, st;
    table_error = 0;
    mapped = 0;
    for (int unsigned i = 0; i < Dies * Blocks; i++) reserved_n[i] = 0;
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned l = 0; l < Planes; l++) begin
        for (int unsigned b = 0; b < Blocks; b++) begin
          f = fwd_sh[(d * Planes + l) * Blocks + b];
          pp = 32'(f[BlockBits +: PhysPlaneBits]);
          pb = 32'(f[0 +: BlockBits]);
          if (pp >= PhysPlanes) begin
            if (table_error == 0) table_error = 1;
          end else begin
            r = rev_sh[(d * PhysPlanes + pp) * Blocks + pb];
            if (r != rev_word(flint_pkg::BlkMapped, PlaneBits'(l), BlockBits'(b)) &&
                table_error == 0) table_error = 2;
          end
        end
      end
    end
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned p = 0; p < PhysPlanes; p++) begin
        for (int unsigned b = 0; b < Blocks; b++) begin
          r = rev_sh[(d * PhysPlanes + p) * Blocks + b];
          st = 32'(r[RevWidth-1 -: flint_pkg::BlkStateWidth]);
          if (st > 4 && table_error == 0) table_error = 6;
          if (st == 1) mapped++;
          if (st == 2) begin
            reserved_n[d * Blocks + 32'(r[0 +: BlockBits])]++;
            // A reservation sits on the phantom plane of the block it is for.
            if (32'(pm_sh[d * Blocks + 32'(r[0 +: BlockBits])][PhysPlaneBits-1:0]) != p &&
                table_error == 0) table_error = 5;
          end
        end
      end
    end
    if (mapped != FwdEntries && table_error == 0) table_error = 3;
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned b = 0; b < Blocks; b++) begin
        seen = '0;
        for (int unsigned l = 0; l < Planes; l++) begin
          pp = 32'(fwd_sh[(d * Planes + l) * Blocks + b][BlockBits +: PhysPlaneBits]);
          if (pp < PhysPlanes) begin
            if (seen[pp] && table_error == 0) table_error = 4;
            seen[pp] = 1'b1;
          end
        end
        ph = 32'(pm_sh[d * Blocks + b][PhysPlaneBits-1:0]);
        if ((ph >= PhysPlanes || seen[ph]) && table_error == 0) table_error = 4;
        if ((reserved_n[d * Blocks + b] > 1 ||
             pm_sh[d * Blocks + b][PhysPlaneBits] != (reserved_n[d * Blocks + b] == 1)) &&
            table_error == 0) table_error = 5;
      end
    end
  endfunction

  logic check_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) check_q <= 1'b0;
    else check_q <= (st_q != StIdle) && (st_d == StIdle);
  end
`ifndef FORMAL
  // Nested ifs: Verilator would otherwise evaluate the whole-table function every cycle.
  // Not under FORMAL (Yosys has no $error): tb/formal/flint_reloc_table_props.sv proves the same
  // invariants, stronger (at every cycle, not only after a command), on the tables themselves.
  always @(posedge clk_i) begin
    if (rst_ni && check_q) begin
      if (table_error() != 0) begin
        $error("%m: relocation table invariant %0d broken (see the list above table_error)",
               table_error());
      end
    end
  end
`endif
`endif
endmodule
`default_nettype wire
