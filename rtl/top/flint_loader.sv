// Model-load write path (paper section 4.4, docs/top.md): every power-up is a clean install.
//
// start_i (with n_bursts_i and erase_i) begins a load: the BTT is cleared; with erase_i every
// block of every physical plane is erased first (all planes of all dies in parallel, a block at a
// time a plane); then the runtime streams the model, n_bursts_i bursts in burst order, each
// burst its slices in order (slice s on die s / Planes, logical plane s mod Planes), each slice
// its cache lines in order, one line a beat (valid/ready). The NAND work goes through one
// maintenance sequencer a die (flint_maint_seq, docs/nand_seq.md): each page is a ProgramPage
// request to its die's sequencer, then its lines as raw data (the sequencer ECC-encodes them,
// unpoisoned, as flint_ecc_cl_img); each erase an EraseBlock. A page goes on logical
// plane l = physical plane l (the relocation table is the identity after reset) at the burst's
// (block, page) of the fixed placement:
//   Placement 0 (linear, the paper):      block = b / Pages,        page = b mod Pages
//   Placement 1 (interleaved, this design, docs/refresh.md Q3):
//                                         block = b mod live,       page = b div live
// live = ceil(n / Pages) blocks a plane. The BTT gets (b -> block, page) at the burst's first
// line. After the last burst the loader pads every live block to its full Pages pages (zero
// data, no BTT entry), so the refresh rotation copies whole blocks.
// The sequencer holds one program or erase a plane in flight, so every plane of every die
// programs (erases) at once; a page's lines wait in the sequencer until their plane is idle.
// Every request is answered (its status read from the plane's fail bit when the plane is idle
// again); the first failed answer (lowest die when two come at once) stops the load with err_o,
// its code and address: no new request is made, but a request already offered is held until
// taken and a page already requested still gets its lines (the sequencer needs them to answer).
// done_o rises when every request has been answered; loaded_o is then n_bursts_i (zero after an
// error). A start while busy is ignored.
//
// Mount (mount_i with start_i): the dies already hold exactly what a load of n_bursts_i leaves
// (a tester- or factory-programmed image, or a simulator's preload: docs/top.md, "Mount"). The
// loader writes the BTT entries of bursts 0..n-1 with the same placement, one a cycle, and
// nothing else: no erase, no data-in, no NAND command, no stream (data_ready_o stays low). Then
// done_o as after a load, loaded_o = n and live_blocks_o as a load of n would report. Mount is
// sound only on such an image: refresh moves pages and the relocation table is lost at power-off.
// A mount does not clear the BTT (a load does): its entries past n must be invalid already.
// Tags: each die's requests carry a counter of that die's requests (distinct among those in
// flight); the loader matches answers by their status and address, not their tag.
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
  localparam int unsigned ReqW      = flint_pkg::MaintReqWidth,
  localparam int unsigned RspW      = flint_pkg::MaintRspWidth
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
  output logic [1:0]                err_code_o,    // flint_pkg::load_err_e
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
  // the dies' maintenance sequencers: requests (flint_pkg::maint_req_t a die), a page's lines
  // (raw data, to the die of the current page), answers (flint_pkg::maint_rsp_t a die)
  output logic [Dies-1:0]           mreq_valid_o,
  input  logic [Dies-1:0]           mreq_ready_i,
  output logic [Dies*ReqW-1:0]      mreq_o,
  output logic [Dies-1:0]           mwr_valid_o,
  input  logic [Dies-1:0]           mwr_ready_i,
  output logic [DataBits-1:0]       mwr_data_o,
  input  logic [Dies-1:0]           mrsp_valid_i,
  output logic [Dies-1:0]           mrsp_ready_o,
  input  logic [Dies*RspW-1:0]      mrsp_i
);
  localparam int unsigned Slices   = Dies * Planes;
  localparam int unsigned SliceBits = (Slices > 1) ? $clog2(Slices) : 1;
  localparam int unsigned TagW     = flint_pkg::MaintTagBits;
  localparam int unsigned OutBits  = $clog2(Dies * (PhysPl + 1) + 1);  // requests unanswered

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
  flint_pkg::load_err_e code_q;
  logic [DieBits-1:0] edie_q;
  logic [PPlBits-1:0] eplane_q;
  logic [BlockBits-1:0] eblock_q;
  logic [PageBits-1:0] epage_q;
  logic sent_q;                          // the current page's ProgramPage is taken
  logic [Dies-1:0] held_q;               // a request offered and not taken: offered again
  logic [Dies*TagW-1:0] tag_q;           // next tag a die
  logic [OutBits-1:0] out_q;             // requests taken, not yet answered
  // Next erase a die: block eblk (Blocks when done), plane epl (every plane of a block in turn).
  // Two counters, not one index divided by PhysPl: a division by the config's 4k+1 planes made
  // Yosys build and then fold 32-bit dividers (48 s of synthesis at small for 1 700 cells).
  logic [Dies*(BlockBits+1)-1:0] eblk_q;
  logic [Dies*PPlBits-1:0] epl_q;

  // --- the current slice's target ---------------------------------------------------------------
  logic [DieBits-1:0] cur_die;
  logic [LPlBits-1:0] cur_plane;
  logic pad;
  assign cur_die = DieBits'(32'(s_q) / Planes);
  assign cur_plane = LPlBits'(32'(s_q) % Planes);
  assign pad = k_q >= n_q;

  // One line a cycle to the current page's sequencer: a line of the stream, or a zero line of a
  // pad page. A page requested before an error still gets its lines.
  logic beat_ok, beat_go, page_end, burst_end;
  assign beat_ok = (st_q == StProg || st_q == StDrain) && !mount_q && sent_q &&
                   (pad || btt_done_q || btt_ready_i);
  always_comb begin
    mwr_valid_o = '0;
    mwr_valid_o[cur_die] = beat_ok && (pad || data_valid_i);
  end
  assign mwr_data_o = pad ? '0 : data_i;
  assign beat_go = mwr_valid_o[cur_die] && mwr_ready_i[cur_die];
  assign data_ready_o = beat_ok && !pad && mwr_ready_i[cur_die];
  assign page_end = beat_go && 32'(j_q) == Lines - 1;
  assign burst_end = page_end && 32'(s_q) == Slices - 1;
  // A mount moves to the next burst as soon as the BTT takes the entry.
  logic mount_step, next_burst;
  assign mount_step = st_q == StProg && mount_q && !err_q && btt_valid_o && btt_ready_i;
  assign next_burst = (burst_end && !err_q) || mount_step;
  // Held until taken (the BTT refuses only during its clear sweep, before any result).
  assign btt_valid_o = st_q == StProg && !pad && !btt_done_q;
  assign btt_idx_o = BurstBits'(k_q);
  assign btt_block_o = blk_q;
  assign btt_page_o = pg_q;

  // --- requests: erases in the erase phase, the current page's ProgramPage in the program phase
  logic [Dies-1:0] erase_left, req_go, erase_go;
  logic prog_req;  // the current page's ProgramPage is due
  flint_pkg::maint_req_t rq;  // a die's request being built
  assign prog_req = st_q == StProg && !err_q && !mount_q && !sent_q && k_q < total_q;
  always_comb begin
    mreq_o = '0;
    mreq_valid_o = '0;
    erase_left = '0;
    rq = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      // Tags in the low bits: the die's flint_maint_arb names its client in the top ones.
      rq.tag = TagW'(tag_q[d*TagW +: flint_pkg::MaintClientTagBits]);
      erase_left[d] = 32'(eblk_q[d*(BlockBits+1) +: BlockBits+1]) < Blocks;
      if (st_q == StErase) begin
        rq.op = flint_pkg::MaintEraseBlock;
        rq.plane = flint_pkg::MaintPlaneBits'(epl_q[d*PPlBits +: PPlBits]);
        rq.block = flint_pkg::MaintBlockBits'(eblk_q[d*(BlockBits+1) +: BlockBits+1]);
        rq.page = '0;
        mreq_valid_o[d] = (erase_left[d] && !err_q) || held_q[d];
      end else begin
        rq.op = flint_pkg::MaintProgramPage;
        rq.plane = flint_pkg::MaintPlaneBits'(cur_plane);
        rq.block = flint_pkg::MaintBlockBits'(blk_q);
        rq.page = flint_pkg::MaintPageBits'(pg_q);
        mreq_valid_o[d] = (prog_req && 32'(cur_die) == d) || held_q[d];
      end
      mreq_o[d*ReqW +: ReqW] = rq;
    end
  end
  assign req_go = mreq_valid_o & mreq_ready_i;
  assign erase_go = (st_q == StErase) ? req_go : '0;

  // --- answers: every one taken; the first failure is the load's error --------------------------
  assign mrsp_ready_o = '1;
  logic [Dies-1:0] failed, odd_answer;  // odd: neither done nor failed (a bad address)
  logic [DieBits-1:0] fdie;
  logic fail_erase;
  logic [PPlBits-1:0] fplane;
  logic [BlockBits-1:0] fblock;
  logic [PageBits-1:0] fpage;
  flint_pkg::maint_rsp_t ra;  // a die's answer
  logic found;
  always_comb begin
    failed = '0;
    odd_answer = '0;
    fdie = '0;
    fail_erase = 1'b0;
    fplane = '0;
    fblock = '0;
    fpage = '0;
    ra = '0;
    found = 1'b0;
    for (int unsigned d = 0; d < Dies; d++) begin
      ra = mrsp_i[d*RspW +: RspW];
      failed[d] = mrsp_valid_i[d] && (ra.status == flint_pkg::MaintProgramFail ||
                                      ra.status == flint_pkg::MaintEraseFail);
      odd_answer[d] = mrsp_valid_i[d] && !failed[d] && ra.status != flint_pkg::MaintOk;
      // the lowest failing die: the first found
      if (failed[d] && !found) begin
        found = 1'b1;
        fdie = DieBits'(d);
        fail_erase = ra.status == flint_pkg::MaintEraseFail;
        fplane = PPlBits'(ra.plane);
        fblock = BlockBits'(ra.block);
        fpage = PageBits'(ra.page);
      end
    end
  end
  logic fail_seen;
  assign fail_seen = failed != '0;
  logic unused_ra;  // answers are told apart by status and address
  assign unused_ra = ^{ra.tag, ra.op};

  // --- the phases -------------------------------------------------------------------------------
  logic all_erased, none_pending;
  always_comb begin
    all_erased = 1'b1;
    for (int unsigned d = 0; d < Dies; d++) begin
      all_erased = all_erased && 32'(eblk_q[d*(BlockBits+1) +: BlockBits+1]) == Blocks;
    end
  end
  assign none_pending = out_q == '0 && held_q == '0 && mreq_valid_o == '0;
  always_comb begin
    st_d = st_q;
    unique case (st_q)
      StIdle, StDone:
               if (start_i) st_d = (n_bursts_i > (BurstBits + 1)'(Bursts)) ? StDone :
                                   (erase_i && !mount_i ? StErase : StProg);
      StErase: if (err_q && none_pending) st_d = StDone;
               else if (all_erased && none_pending) st_d = StProg;
      StProg:  if (err_q) st_d = StDrain;
               else if (k_q == (mount_q ? n_q : total_q)) st_d = StDrain;
      StDrain: if (none_pending && !sent_q) st_d = StDone;
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
      code_q <= flint_pkg::LoadErrNone;
      sent_q <= 1'b0;
      held_q <= '0;
      tag_q <= '0;
      out_q <= '0;
      eblk_q <= '0;
      epl_q <= '0;
      edie_q <= '0;
      eplane_q <= '0;
      eblock_q <= '0;
      epage_q <= '0;
    end else begin
      st_q <= st_d;
      held_q <= mreq_valid_o & ~mreq_ready_i;
      out_q <= out_q + OutBits'($countones(req_go)) - OutBits'($countones(mrsp_valid_i));
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
        eblk_q <= '0;
        epl_q <= '0;
        err_q <= n_bursts_i > (BurstBits + 1)'(Bursts);
        code_q <= (n_bursts_i > (BurstBits + 1)'(Bursts)) ? flint_pkg::LoadErrBursts
                                                           : flint_pkg::LoadErrNone;
        edie_q <= '0;
        eplane_q <= '0;
        eblock_q <= '0;
        epage_q <= '0;
      end
      for (int unsigned d = 0; d < Dies; d++) begin
        if (req_go[d]) tag_q[d*TagW +: TagW] <= tag_q[d*TagW +: TagW] + 1'b1;
        if (erase_go[d]) begin
          if (32'(epl_q[d*PPlBits +: PPlBits]) == PhysPl - 1) begin
            epl_q[d*PPlBits +: PPlBits] <= '0;
            eblk_q[d*(BlockBits+1) +: BlockBits+1] <= eblk_q[d*(BlockBits+1) +: BlockBits+1] + 1'b1;
          end else begin
            epl_q[d*PPlBits +: PPlBits] <= epl_q[d*PPlBits +: PPlBits] + 1'b1;
          end
        end
      end
      if (fail_seen && !err_q) begin
        // The first failure: its die, plane and (a program's) block and page.
        err_q <= 1'b1;
        code_q <= fail_erase ? flint_pkg::LoadErrErase : flint_pkg::LoadErrProgram;
        edie_q <= fdie;
        eplane_q <= fplane;
        if (!fail_erase) begin
          eblock_q <= fblock;
          epage_q <= fpage;
        end
      end
      if (btt_valid_o && btt_ready_i) btt_done_q <= 1'b1;
      if (st_q != StErase && req_go != '0) sent_q <= 1'b1;
      if (page_end) sent_q <= 1'b0;
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

  // Lines go only to the current page's requested die; a program's request only after the page
  // before has had all its lines; no more answers than requests; every answer is a done
  // operation (never a bad address: the loader's addresses lie inside the die).
  `FLINT_ASSERT_IMPLY(BeatOnlyRequested, mwr_valid_o != '0, sent_q)
  `FLINT_ASSERT_IMPLY(OneProgramRequest, st_q != StErase && mreq_valid_o != '0, !sent_q)
  `FLINT_ASSERT(AnswersOnlyRequested,
                32'(out_q) + 32'($countones(req_go)) >= 32'($countones(mrsp_valid_i)))
  `FLINT_ASSERT(NoneDoneWhilePending, st_q != StDone || (out_q == '0 && !sent_q))
  // A mount touches no die and takes no stream.
  `FLINT_ASSERT_IMPLY(MountNoNand, mount_q && st_q != StIdle && st_q != StDone,
                      mreq_valid_o == '0 && mwr_valid_o == '0 && !data_ready_o)
  `FLINT_ASSERT(AnswerNoBadAddress, odd_answer == '0)
endmodule
`default_nettype wire
