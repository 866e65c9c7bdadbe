// Model-load write path (paper section 4.4, docs/top.md): every power-up is a clean install.
//
// start_i (with n_bursts_i and erase_i) begins a load: the BTT is cleared; with erase_i every
// block of every physical plane is erased first (all planes of all dies in parallel, a block at a
// time a plane); then the runtime streams the model, n_bursts_i bursts in burst order, each
// burst its slices in order (slice s on die s / Planes, logical plane s mod Planes), each slice
// its cache lines in order, one line a beat (valid/ready). Each line is ECC-encoded into its
// NAND image and sent to the die's data-in; a page's Program follows its last line, on logical
// plane l = physical plane l (the relocation table is the identity after reset) at the burst's
// (block, page) of the fixed placement:
//   Placement 0 (linear, the paper):      block = b / Pages,        page = b mod Pages
//   Placement 1 (interleaved, this design, docs/refresh.md Q3):
//                                         block = b mod live,       page = b div live
// live = ceil(n / Pages) blocks a plane. The BTT gets (b -> block, page) at the burst's first
// line. After the last burst the loader pads every live block to its full Pages pages (zero
// data, no BTT entry), so the refresh rotation copies whole blocks.
// A page's data-in waits for its plane to be idle (its previous program done). Program and erase
// results are read from the plane's fail bit once the plane is idle again; the first failure
// stops the load with err_o and its code and address. done_o rises when every program has
// finished; loaded_o is then n_bursts_i (zero after an error). A start while busy is ignored.
//
// Mount (mount_i with start_i): the dies already hold exactly what a load of n_bursts_i leaves
// (a tester- or factory-programmed image, or a simulator's preload: docs/top.md, "Mount"). The
// loader writes the BTT entries of bursts 0..n-1 with the same placement, one a cycle, and
// nothing else: no erase, no data-in, no NAND command, no stream (data_ready_o stays low). Then
// done_o as after a load, loaded_o = n and live_blocks_o as a load of n would report. Mount is
// sound only on such an image: refresh moves pages and the relocation table is lost at power-off.
// A mount does not clear the BTT (a load does): its entries past n must be invalid already.
// NAND port contract (per die, shared with the refresh controller through flint_die_port): a
// command in cycle t sees the data-in beats of cycles before t; the beat of cycle t belongs to
// the next page.
`default_nettype none
`include "flint_assert.svh"
module flint_loader #(
  parameter int unsigned Placement = 1,
  // do not override
  localparam int unsigned Dies      = flint_cfg_pkg::Dies,
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages     = flint_cfg_pkg::Pages,
  localparam int unsigned Lines     = flint_cfg_pkg::ClPerPage,
  localparam int unsigned Bursts    = flint_cfg_pkg::BurstsPerStack,
  localparam int unsigned DieBits   = flint_cfg_pkg::DieBits,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned BurstBits = flint_cfg_pkg::BurstIdxBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // control and status
  input  logic                      start_i,
  input  logic [BurstBits:0]        n_bursts_i,
  input  logic                      erase_i,
  input  logic                      mount_i,       // with start_i: the dies hold the image
  output logic                      busy_o,
  output logic                      done_o,
  output logic [BurstBits:0]        loaded_o,      // bursts in service once done (0 on error)
  output logic [BlockBits:0]        live_blocks_o,
  output logic [BurstBits:0]        progress_o,    // bursts streamed so far
  output logic [63:0]               cycles_o,      // start to done
  output logic                      err_o,
  output logic [1:0]                err_code_o,    // 1 too many bursts, 2 erase, 3 program fail
  output logic [DieBits-1:0]        err_die_o,
  output logic [PPlBits-1:0]        err_plane_o,
  output logic [BlockBits-1:0]      err_block_o,
  output logic [PageBits-1:0]       err_page_o,
  // the weight stream, one cache line a beat
  input  logic                      data_valid_i,
  output logic                      data_ready_o,
  input  logic [DataBits-1:0]       data_i,
  // BTT
  output logic                      btt_clear_o,
  output logic                      btt_valid_o,
  input  logic                      btt_ready_i,
  output logic [BurstBits-1:0]      btt_idx_o,
  output logic [BlockBits-1:0]      btt_block_o,
  output logic [PageBits-1:0]       btt_page_o,
  // the dies: commands (Erase, Program), data-in beats, plane state
  output logic [Dies-1:0]           cmd_valid_o,
  input  logic [Dies-1:0]           cmd_ready_i,
  output logic [Dies*CmdW-1:0]      cmd_op_o,
  output logic [Dies*PPlBits-1:0]   cmd_plane_o,
  output logic [Dies*BlockBits-1:0] cmd_block_o,
  output logic [Dies*PageBits-1:0]  cmd_page_o,
  output logic [Dies-1:0]           din_valid_o,
  output logic [LineW-1:0]          din_data_o,
  input  logic [Dies*PhysPl-1:0]    plane_idle_i,
  input  logic [Dies*PhysPl-1:0]    plane_fail_i
);
  localparam int unsigned Slices   = Dies * Planes;
  localparam int unsigned SliceBits = (Slices > 1) ? $clog2(Slices) : 1;
  localparam int unsigned EraseN   = Blocks * PhysPl;  // erases a die
  localparam int unsigned EraseBits = $clog2(EraseN + 1);
  localparam logic [CmdW-1:0] OpErase   = CmdW'(flint_pkg::NandCmdErase);
  localparam logic [CmdW-1:0] OpProgram = CmdW'(flint_pkg::NandCmdProgram);

  typedef enum logic [2:0] {
    StIdle  = 3'd0,
    StErase = 3'd1,
    StProg  = 3'd2,
    StDrain = 3'd3,
    StDone  = 3'd4
  } state_e;
  state_e st_q, st_d;
  logic start;  // a load begins (ignored while one runs)
  assign start = start_i && (st_q == StIdle || st_q == StDone);

  logic [BurstBits:0] n_q, k_q;          // bursts to load; current burst (pads beyond n)
  logic [BurstBits:0] total_q;           // n rounded up to whole live blocks
  logic [BlockBits:0] live_q;
  logic [SliceBits-1:0] s_q;             // slice of the current burst
  logic [LineBits-1:0] j_q;              // line of the current page
  logic [BlockBits-1:0] blk_q;           // placement of burst k
  logic [PageBits-1:0] pg_q;
  logic btt_done_q;                      // burst k's BTT entry is written
  logic mount_q;                         // this load is a mount: BTT entries only
  logic [63:0] cyc_q;
  logic err_q;
  logic [1:0] code_q;
  logic [DieBits-1:0] edie_q;
  logic [PPlBits-1:0] eplane_q;
  logic [BlockBits-1:0] eblock_q;
  logic [PageBits-1:0] epage_q;
  // per die and plane: an operation issued and not yet seen done; issued this very cycle
  logic [Dies*PhysPl-1:0] pend_q, fresh_q;
  // a page's Program waiting to be issued (after its last data-in beat)
  logic pgm_q;
  logic [DieBits-1:0] pgm_die_q;
  logic [LPlBits-1:0] pgm_plane_q;
  logic [BlockBits-1:0] pgm_block_q;
  logic [PageBits-1:0] pgm_page_q;
  logic [Dies*EraseBits-1:0] eidx_q;     // next erase a die: block * PhysPl + plane

  // --- the current slice's target ---------------------------------------------------------------
  logic [DieBits-1:0] cur_die;
  logic [LPlBits-1:0] cur_plane;
  logic pad;
  assign cur_die = DieBits'(32'(s_q) / Planes);
  assign cur_plane = LPlBits'(32'(s_q) % Planes);
  assign pad = k_q >= n_q;
  logic cur_free;  // the page's plane is idle and has no result pending
  assign cur_free = plane_idle_i[32'(cur_die)*PhysPl + 32'(cur_plane)] &&
                    !pend_q[32'(cur_die)*PhysPl + 32'(cur_plane)] &&
                    !(pgm_q && pgm_die_q == cur_die && pgm_plane_q == cur_plane);

  // One beat a cycle: a line of the stream, or a zero line of a pad page.
  logic beat_ok, beat_go, page_end, burst_end;
  // A page's last beat waits for the previous page's Program to be issued (one pending).
  assign beat_ok = st_q == StProg && !err_q && !mount_q && (j_q != '0 || cur_free) &&
                   (pad || btt_done_q || btt_ready_i) &&
                   !(pgm_q && 32'(j_q) == Lines - 1);
  assign beat_go = beat_ok && (pad || data_valid_i);
  assign data_ready_o = beat_ok && !pad;
  assign page_end = beat_go && 32'(j_q) == Lines - 1;
  assign burst_end = page_end && 32'(s_q) == Slices - 1;
  // A mount moves to the next burst as soon as the BTT takes the entry.
  logic mount_step, next_burst;
  assign mount_step = st_q == StProg && mount_q && !err_q && btt_valid_o && btt_ready_i;
  assign next_burst = burst_end || mount_step;
  // Held until taken (the BTT refuses only during its clear sweep, before any result).
  assign btt_valid_o = st_q == StProg && !pad && !btt_done_q;
  assign btt_idx_o = BurstBits'(k_q);
  assign btt_block_o = blk_q;
  assign btt_page_o = pg_q;

  logic [LineW-1:0] img;
  flint_ecc_cl_img u_img (
    .data_i  (pad ? '0 : data_i),
    .poison_i(1'b0),
    .img_o   (img)
  );
  assign din_data_o = img;
  always_comb begin
    din_valid_o = '0;
    din_valid_o[cur_die] = beat_go;
  end

  // --- commands: erases in the erase phase, the pending Program in the program phase --------
  logic [Dies-1:0] erase_go, erase_left;
  always_comb begin
    cmd_valid_o = '0;
    cmd_op_o = '0;
    cmd_plane_o = '0;
    cmd_block_o = '0;
    cmd_page_o = '0;
    erase_go = '0;
    erase_left = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      if (st_q == StErase) begin
        erase_left[d] = 32'(eidx_q[d*EraseBits +: EraseBits]) < EraseN;
        cmd_op_o[d*CmdW +: CmdW] = OpErase;
        cmd_plane_o[d*PPlBits +: PPlBits] =
            PPlBits'(32'(eidx_q[d*EraseBits +: EraseBits]) % PhysPl);
        cmd_block_o[d*BlockBits +: BlockBits] =
            BlockBits'(32'(eidx_q[d*EraseBits +: EraseBits]) / PhysPl);
        cmd_valid_o[d] = erase_left[d] && !err_q &&
            plane_idle_i[d*PhysPl + 32'(cmd_plane_o[d*PPlBits +: PPlBits])] &&
            !pend_q[d*PhysPl + 32'(cmd_plane_o[d*PPlBits +: PPlBits])];
        erase_go[d] = cmd_valid_o[d] && cmd_ready_i[d];
      end else if (pgm_q && 32'(pgm_die_q) == d) begin
        cmd_valid_o[d] = 1'b1;
        cmd_op_o[d*CmdW +: CmdW] = OpProgram;
        cmd_plane_o[d*PPlBits +: PPlBits] = PPlBits'(pgm_plane_q);
        cmd_block_o[d*BlockBits +: BlockBits] = pgm_block_q;
        cmd_page_o[d*PageBits +: PageBits] = pgm_page_q;
      end
    end
  end
  logic pgm_go;
  assign pgm_go = pgm_q && cmd_ready_i[pgm_die_q] && st_q != StErase;

  // --- results: an operation is done when its plane is idle again -------------------------------
  logic [Dies*PhysPl-1:0] issued, finished, failed;
  logic fail_seen;
  always_comb begin
    issued = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      if (erase_go[d]) issued[d*PhysPl + 32'(cmd_plane_o[d*PPlBits +: PPlBits])] = 1'b1;
    end
    if (pgm_go) issued[32'(pgm_die_q)*PhysPl + 32'(pgm_plane_q)] = 1'b1;
    finished = pend_q & ~fresh_q & plane_idle_i;
  end
  assign failed = finished & plane_fail_i;
  assign fail_seen = |failed;
  // Which plane failed is found after the fact: the first failure's planes are kept and shifted
  // out one a cycle (Dies x PhysPl cycles at most, against a drain of at least tPROG), so no
  // priority chain across every plane of the stack sits in one cycle (at paper it was the
  // longest logic path of the design, 4.2 ns; docs/area.md). done_o waits for it.
  logic locating_q, fail_erase_q;
  logic [Dies*PhysPl-1:0] floc_q;
  logic [DieBits-1:0] ldie_q;
  logic [PPlBits-1:0] lplane_q;
  logic [SliceBits-1:0] fs_q;
  logic [BlockBits-1:0] fblk_q, fprev_blk_q;
  logic [PageBits-1:0] fpg_q, fprev_pg_q;

  // --- the phases -------------------------------------------------------------------------------
  logic all_erased, none_pending;
  always_comb begin
    all_erased = 1'b1;
    for (int unsigned d = 0; d < Dies; d++) begin
      all_erased = all_erased && 32'(eidx_q[d*EraseBits +: EraseBits]) == EraseN;
    end
  end
  assign none_pending = pend_q == '0;
  always_comb begin
    st_d = st_q;
    unique case (st_q)
      StIdle, StDone:
               if (start_i) st_d = (n_bursts_i > (BurstBits + 1)'(Bursts)) ? StDone :
                                   (erase_i && !mount_i ? StErase : StProg);
      StErase: if (err_q && none_pending && !locating_q) st_d = StDone;
               else if (all_erased && none_pending) st_d = StProg;
      StProg:  if (err_q) st_d = StDrain;
               else if (k_q == (mount_q ? n_q : total_q)) st_d = StDrain;
      StDrain: if (none_pending && !pgm_q && !locating_q) st_d = StDone;
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      n_q <= '0;
      k_q <= '0;
      total_q <= '0;
      live_q <= '0;
      s_q <= '0;
      j_q <= '0;
      blk_q <= '0;
      pg_q <= '0;
      btt_done_q <= 1'b0;
      mount_q <= 1'b0;
      cyc_q <= '0;
      err_q <= 1'b0;
      code_q <= '0;
      pend_q <= '0;
      fresh_q <= '0;
      pgm_q <= 1'b0;
      pgm_die_q <= '0;
      pgm_plane_q <= '0;
      pgm_block_q <= '0;
      pgm_page_q <= '0;
      eidx_q <= '0;
    end else begin
      st_q <= st_d;
      pend_q <= (pend_q & ~finished) | issued;
      fresh_q <= issued;
      if (st_q != StIdle && st_q != StDone) cyc_q <= cyc_q + 1'b1;
      if (start) begin
        n_q <= n_bursts_i;
        live_q <= (BlockBits + 1)'((32'(n_bursts_i) + Pages - 1) / Pages);
        total_q <= (BurstBits + 1)'(((32'(n_bursts_i) + Pages - 1) / Pages) * Pages);
        k_q <= '0;
        s_q <= '0;
        j_q <= '0;
        blk_q <= '0;
        pg_q <= '0;
        btt_done_q <= 1'b0;
        mount_q <= mount_i;
        cyc_q <= '0;
        eidx_q <= '0;
        err_q <= n_bursts_i > (BurstBits + 1)'(Bursts);
        code_q <= (n_bursts_i > (BurstBits + 1)'(Bursts)) ? 2'd1 : 2'd0;
      end
      for (int unsigned d = 0; d < Dies; d++) begin
        if (erase_go[d]) eidx_q[d*EraseBits +: EraseBits] <=
            eidx_q[d*EraseBits +: EraseBits] + 1'b1;
      end
      if (fail_seen && !err_q) begin
        err_q <= 1'b1;
        code_q <= (st_q == StErase) ? 2'd2 : 2'd3;
      end
      if (btt_valid_o && btt_ready_i) btt_done_q <= 1'b1;
      if (pgm_go) pgm_q <= 1'b0;
      if (page_end) begin
        pgm_q <= 1'b1;
        pgm_die_q <= cur_die;
        pgm_plane_q <= cur_plane;
        pgm_block_q <= blk_q;
        pgm_page_q <= pg_q;
      end
      if (beat_go) begin
        j_q <= (32'(j_q) == Lines - 1) ? '0 : j_q + 1'b1;
        if (page_end) s_q <= (32'(s_q) == Slices - 1) ? '0 : s_q + 1'b1;
      end
      if (next_burst) begin
        k_q <= k_q + 1'b1;
        btt_done_q <= 1'b0;
        if (Placement == 0) begin
          blk_q <= BlockBits'((32'(k_q) + 1) / Pages);
          pg_q <= PageBits'((32'(k_q) + 1) % Pages);
        end else if (32'(blk_q) + 1 == 32'(live_q)) begin
          blk_q <= '0;
          pg_q <= pg_q + 1'b1;
        end else begin
          blk_q <= blk_q + 1'b1;
        end
      end
    end
  end
  // The page a failed program wrote: a plane's pending program is its slice of the current
  // burst if that slice has been streamed already, else of the burst before.
  logic [BlockBits-1:0] prev_blk_q;
  logic [PageBits-1:0] prev_pg_q;
  logic fail_current;
  assign fail_current = 32'(ldie_q) * Planes + 32'(lplane_q) < 32'(fs_q);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      edie_q <= '0;
      eplane_q <= '0;
      eblock_q <= '0;
      epage_q <= '0;
      prev_blk_q <= '0;
      prev_pg_q <= '0;
      locating_q <= 1'b0;
      fail_erase_q <= 1'b0;
      floc_q <= '0;
      ldie_q <= '0;
      lplane_q <= '0;
      fs_q <= '0;
      fblk_q <= '0;
      fpg_q <= '0;
      fprev_blk_q <= '0;
      fprev_pg_q <= '0;
    end else begin
      if (burst_end) begin
        prev_blk_q <= blk_q;
        prev_pg_q <= pg_q;
      end
      if (start) begin
        edie_q <= '0;
        eplane_q <= '0;
        eblock_q <= '0;
        epage_q <= '0;
      end else if (fail_seen && !err_q) begin
        // The first failure: keep its planes and where the load stood.
        locating_q <= 1'b1;
        fail_erase_q <= st_q == StErase;
        floc_q <= failed;
        ldie_q <= '0;
        lplane_q <= '0;
        fs_q <= s_q;
        fblk_q <= blk_q;
        fpg_q <= pg_q;
        fprev_blk_q <= prev_blk_q;
        fprev_pg_q <= prev_pg_q;
      end else if (locating_q) begin
        if (floc_q[0]) begin
          // The lowest failed plane; a program's page is its slice of the burst being streamed
          // if that slice had been streamed already, else of the burst before.
          locating_q <= 1'b0;
          edie_q <= ldie_q;
          eplane_q <= lplane_q;
          if (!fail_erase_q) begin
            eblock_q <= fail_current ? fblk_q : fprev_blk_q;
            epage_q <= fail_current ? fpg_q : fprev_pg_q;
          end
        end else begin
          floc_q <= floc_q >> 1;
          if (32'(lplane_q) == PhysPl - 1) begin
            lplane_q <= '0;
            ldie_q <= ldie_q + 1'b1;
          end else begin
            lplane_q <= lplane_q + 1'b1;
          end
        end
      end
    end
  end

  // A mount leaves the BTT as it is: its entries past n must already be invalid, as they are
  // after the power-up sweep (flint_top accepts one start per reset, after ready_o).
  assign btt_clear_o = start && !mount_i;
  assign busy_o = st_q != StIdle && st_q != StDone;
  assign done_o = st_q == StDone;
  assign loaded_o = (st_q == StDone && !err_q) ? n_q : '0;
  assign live_blocks_o = live_q;
  assign progress_o = (k_q < n_q) ? k_q : n_q;
  assign cycles_o = cyc_q;
  assign err_o = err_q;
  assign err_code_o = code_q;
  assign err_die_o = edie_q;
  assign err_plane_o = eplane_q;
  assign err_block_o = eblock_q;
  assign err_page_o = epage_q;

  // A page's data-in never overlaps its own plane's program, and a command names an idle plane.
  `FLINT_ASSERT_IMPLY(BeatOnIdlePlane, beat_go && j_q == '0, cur_free)
  `FLINT_ASSERT_IMPLY(ProgramOnIdlePlane, pgm_go,
                      plane_idle_i[32'(pgm_die_q)*PhysPl + 32'(pgm_plane_q)])
  `FLINT_ASSERT(OneResultAPlane, (issued & pend_q & ~finished) == '0)
  // A mount touches no die and takes no stream.
  `FLINT_ASSERT_IMPLY(MountNoNand, mount_q && st_q != StIdle && st_q != StDone,
                      cmd_valid_o == '0 && din_valid_o == '0 && !data_ready_o)
  // The failure's planes are all found: a load with an error ends only with its plane named.
  `FLINT_ASSERT_IMPLY(DoneLocated, st_q == StDone, !locating_q)
  `FLINT_ASSERT_IMPLY(LocateFinds, locating_q, floc_q != '0)
endmodule
`default_nettype wire
