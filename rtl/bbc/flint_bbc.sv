// Burst-buffer controller of one stack (paper section 4.1; docs/bbc.md, "RTL: the BBC top"):
// the accelerator port, the cache request queue (a flint_bbc_die a die), the cl-to-page map's
// slots and the burst scheduler (flint_bbc_sched), the residency of the page and cache buffers,
// the NAND command sequencers and the response lanes. Golden model: model/bbc BbcModel.
//
// Port. Lanes request lanes, taken in lane order: lane l is taken only if every lower lane with
// a request is, so a testbench that fills lanes in trace order keeps that order. A request is
// decoded at once: an address at or past the stack is OUT_OF_RANGE, one past the loaded bursts
// NOT_LOADED; both are answered on the same lane in the next cycle and never reach the queue.
// Others need room in their die's sub-bank for their lane (die = address's slice / Planes; lane
// l appends to sub-bank l of that die, so two lanes never contend for one SRAM write port) and
// their burst a slot in the scheduler (one new burst a cycle). The response lanes have no ready: the accelerator takes a response
// in the cycle it is shown. Lane l carries lane l's error responses first, then the lines of
// dies l, l + Lanes, ... round-robin.
//
// Residency, stack-wide as in the model: ACTIVE in the cache buffers (served), NEXT in the page
// buffers. With no NEXT, the scheduler's pick is sensed (Read on every die) as soon as every
// die's arrays are idle. NEXT moves to the cache buffers (CacheRead, which also senses a new
// pick, or CacheEnd with none) once it is sensed and ACTIVE is drained (no queued request, no
// line between queue and NAND, and for most-pending no request for Hold cycles), or at once when
// NEXT's oldest request has waited AgeCap cycles (ACTIVE's remaining requests go back to
// waiting: an age-cap displacement). The physical stripe of a burst comes from the translation
// port XlatLat cycles after the burst is named on it (the BTT and stripe SRAMs' latency), so a
// pick is issued once it has been the pick for XlatLat cycles. A CacheRead moves NEXT and senses
// the pick on the same planes, so it needs the pick's stripe to equal NEXT's; across a refresh
// switch they differ, and the move is a CacheEnd of NEXT's planes followed by a Read.
//
// Refresh (docs/refresh.md). park_i: sense nothing new, serve ACTIVE and NEXT until drained,
// then release ACTIVE; sense_free_o says the page buffers hold nothing of ours and nothing will
// be sensed or moved while park_i stays high (NEXT has moved to the cache buffers: a
// maintenance read may sense a page of its own while ACTIVE is still served), parked_o that the
// cache buffers hold nothing of ours either (it may move the page to a cache buffer and read it
// out; ACTIVE is released in the first such cycle, when its last line's data may still be
// returning and forking). hold_i: move nothing into the cache buffers (no CacheRead or
// CacheEnd); with park_i low the pick is still sensed into the page buffers, so the maintenance
// read's data-outs overlap the refill of the pipeline. Requests keep queueing meanwhile.
// res_planes_o names the physical planes whose buffers hold ACTIVE or NEXT (a vacated plane is
// erased only once it is out of them). The fork port gives every decoded line as the NAND
// returns it, with ACTIVE's logical block and page.
`default_nettype none
`include "flint_assert.svh"
module flint_bbc #(
  parameter int unsigned Policy = 1,  // 0 fcfs, 1 most-pending
  parameter int unsigned Slots  = flint_cfg_pkg::SchedSlots,
  parameter int unsigned Hold   = (Policy == 0) ? 0 : flint_cfg_pkg::BurstPeriodCycles / 4,
  parameter int unsigned AgeCap = 4 * flint_cfg_pkg::BurstPeriodCycles,
  parameter int unsigned AddrW  = 48,  // request address bits: any wider address is out of range
  // Sub-bank depth, in units of its share of the queue (CRQ_ENTRIES / (DIES x LANES)). The
  // queue holds at most CRQ_ENTRIES requests in all, as the model's pooled queue does; streams
  // put most of their lines on a few dies at a time, so a die needs room for more than its
  // share (docs/bbc.md, "Queue banks a die").
  parameter int unsigned Slack  = flint_cfg_pkg::CrqDieSlack,
  parameter int unsigned XlatLat = 1,  // cycles from xlat_burst_o to its stripe (>= 1)
  // do not override
  localparam int unsigned Lanes     = flint_cfg_pkg::Lanes,
  localparam int unsigned Dies      = flint_cfg_pkg::Dies,
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned IdBits    = flint_cfg_pkg::ReqIdBits,
  localparam int unsigned BurstBits = flint_cfg_pkg::BurstIdxBits,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned DataBits  = flint_cfg_pkg::ClBytes * 8,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned StW       = flint_pkg::StatusWidth,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth,
  localparam int unsigned StripeP   = Planes * PPlBits,
  localparam int unsigned StripeB   = Planes * BlockBits
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [BurstBits:0]           loaded_bursts_i,  // bursts [0, n) are loaded
  output logic                         ready_o,          // reset sweep done: the port is open
  // accelerator port
  input  logic [Lanes-1:0]             req_valid_i,
  output logic [Lanes-1:0]             req_ready_o,
  input  logic [Lanes*IdBits-1:0]      req_id_i,
  input  logic [Lanes*AddrW-1:0]       req_addr_i,
  output logic [Lanes-1:0]             rsp_valid_o,
  output logic [Lanes*IdBits-1:0]      rsp_id_o,
  output logic [Lanes*StW-1:0]         rsp_status_o,
  output logic [Lanes*DataBits-1:0]    rsp_data_o,
  // translation: the stripe of xlat_burst_o, XlatLat cycles later (logical block and page, and
  // per die and plane the physical plane and block)
  output logic [BurstBits-1:0]         xlat_burst_o,
  input  logic [BlockBits-1:0]         xlat_lblock_i,
  input  logic [PageBits-1:0]          xlat_page_i,
  input  logic [Dies*StripeP-1:0]      xlat_planes_i,
  input  logic [Dies*StripeB-1:0]      xlat_blocks_i,
  // the NAND dies: per physical plane, array idle and cache buffer readable
  input  logic [Dies*PhysPl-1:0]       die_plane_idle_i,
  input  logic [Dies*PhysPl-1:0]       die_plane_cache_i,
  input  logic [Dies-1:0]              die_io_ready_i,
  output logic [Dies-1:0]              nand_valid_o,
  output logic [Dies*CmdW-1:0]         nand_op_o,
  output logic [Dies*PageBits-1:0]     nand_page_o,
  output logic [Dies*StripeP-1:0]      nand_planes_o,
  output logic [Dies*StripeB-1:0]      nand_blocks_o,
  output logic [Dies*PPlBits-1:0]      nand_plane_o,
  output logic [Dies*OffBits-1:0]      nand_offset_o,
  output logic [Dies*OffBits-1:0]      nand_nbytes_o,
  input  logic [Dies-1:0]              die_data_valid_i,
  input  logic [Dies*LineW-1:0]        die_data_i,
  // a burst sense is issued this cycle (Read or CacheRead on every die), and which
  output logic                         sense_o,
  output logic [BurstBits-1:0]         sense_burst_o,
  output logic [BlockBits-1:0]         sense_lblock_o,
  // refresh: park, residency, and the fork of every decoded line
  input  logic                         park_i,
  input  logic                         hold_i,           // keep the cache buffers: no move
  output logic                         sense_free_o,     // page buffers free, no sense to come
  output logic                         parked_o,
  output logic                         empty_o,          // no request queued or in flight
  output logic [Dies*PhysPl-1:0]       res_planes_o,
  output logic                         act_valid_o,
  output logic                         act_new_o,        // NEXT becomes ACTIVE this cycle
  output logic                         act_change_o,     // ACTIVE is released this cycle
  output logic [BlockBits-1:0]         act_lblock_o,
  output logic [PageBits-1:0]          act_page_o,
  // fork: a die's decoded lines; the data and status are the decode of that die's die_data_i in
  // every cycle (flint_bbc_die), which the die's maintenance sequencer uses too
  output logic [Dies-1:0]              fork_valid_o,
  output logic [Dies*LPlBits-1:0]      fork_lplane_o,
  output logic [Dies*LineBits-1:0]     fork_line_o,
  output logic [Dies*StW-1:0]          fork_status_o,
  output logic [Dies*DataBits-1:0]     fork_data_o,
  // statistics
  output logic [63:0]                  stat_requests_o,
  output logic [63:0]                  stat_responses_o,
  output logic [63:0]                  stat_bursts_o,          // senses
  output logic [63:0]                  stat_refetched_o,       // senses of bursts fetched before
  output logic [63:0]                  stat_useful_bytes_o,    // ClBytes per NAND-served line
  output logic [63:0]                  stat_fetched_bytes_o,   // BurstBytes per sense
  output logic [63:0]                  stat_link_slots_o,      // response-lane slots used
  output logic [63:0]                  stat_busy_cycles_o,     // cycles with any response
  output logic [63:0]                  stat_queue_high_water_o,
  output logic [63:0]                  stat_displacements_o,   // age-cap displacements
  output logic [63:0]                  stat_park_wait_o        // cycles parked with requests
);
  localparam int unsigned SlotBits  = (Slots > 1) ? $clog2(Slots) : 1;
  localparam int unsigned CountBits = flint_cfg_pkg::CrqIdxBits + 1;
  localparam int unsigned DieBits   = (Dies > 1) ? $clog2(Dies) : 1;
  localparam int unsigned PayBits   = IdBits + LPlBits + LineBits;
  localparam int unsigned SubEnt    = Slack * flint_cfg_pkg::CrqEntries / (Dies * Lanes);
  localparam int unsigned UsedBits  = $clog2(Lanes * SubEnt + 1);
  localparam int unsigned OccBits   = flint_cfg_pkg::CrqIdxBits + 2;
  localparam int unsigned Bursts    = flint_cfg_pkg::BurstsPerStack;
  // address fields (every size a power of two: flint_cfg_pkg's generator checks it)
  localparam int unsigned LineLsb   = flint_cfg_pkg::ClOffsetBits;
  localparam int unsigned PlaneLsb  = LineLsb + LineBits;
  localparam int unsigned DieLsb    = PlaneLsb + LPlBits;
  localparam int unsigned BurstLsb  = DieLsb + flint_cfg_pkg::DieBits;
  localparam int unsigned DiesPerLn = (Dies + Lanes - 1) / Lanes;
  localparam int unsigned DplBits   = (DiesPerLn > 1) ? $clog2(DiesPerLn) : 1;
  // NEXT's lines a die stages before the move: room for the burst after NEXT to be queued,
  // picked and translated in time for the move (one more line a cycle of translation).
  localparam int unsigned PreDepth  = XlatLat + 1;
  localparam int unsigned PreBits   = $clog2(PreDepth + 1);

  // --- reset sweep of the fetched-before bitmap --------------------------------------------
  logic [BurstBits:0] sweep_q;
  logic init_done;
  assign init_done = sweep_q == (BurstBits + 1)'(Bursts);
  assign ready_o = init_done;

  // --- decode and acceptance -----------------------------------------------------------------
  logic [CountBits-1:0] left_q;  // lines that leave the queue this cycle (popped)
  logic [Lanes-1:0] is_err, is_oor, fire, data_fire, sched_ready;
  logic [Lanes*BurstBits-1:0] lane_burst;
  logic [Lanes*DieBits-1:0] lane_die;
  logic [Lanes*PayBits-1:0] lane_pay;
  logic [Dies*Lanes-1:0] sub_ready;  // die d, sub-bank k at [d*Lanes + k]
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      is_oor[l] = req_addr_i[l*AddrW +: AddrW] >= AddrW'(flint_cfg_pkg::StackBytes);
      lane_burst[l*BurstBits +: BurstBits] = req_addr_i[l*AddrW + BurstLsb +: BurstBits];
      is_err[l] = is_oor[l] ||
                  {1'b0, req_addr_i[l*AddrW + BurstLsb +: BurstBits]} >= loaded_bursts_i;
      lane_die[l*DieBits +: DieBits] =
          (Dies > 1) ? DieBits'(req_addr_i[l*AddrW + DieLsb +: DieBits]) : '0;
      lane_pay[l*PayBits +: PayBits] = {req_id_i[l*IdBits +: IdBits],
                                        req_addr_i[l*AddrW + PlaneLsb +: LPlBits],
                                        req_addr_i[l*AddrW + LineLsb +: LineBits]};
    end
  end
  // Lane order: a lane goes only if every lower lane with a request goes. Lane l appends to
  // sub-bank l of its die: lanes of one cycle never share a sub-bank, whatever their addresses
  // (with sub-bank = line address mod Lanes, two lanes on one die and sub-bank refused the
  // higher one and every lane after it; on a saturating decode stream at `small` that held the
  // port to 1.5 requests a cycle where the drain frees 2, and cost 21 % of the model's cycles,
  // docs/bbc.md "Port").
  logic [Lanes-1:0] lane_ok, prefix;  // prefix[l]: every lane below l with a request goes
  // the queue has a place for lane l after the lanes below it (a line popped this cycle has left:
  // the pops depend on registered state only, not on the requests)
  logic [Lanes-1:0] room;
  logic [OccBits-1:0] occ_q;
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      room[l] = {1'b0, occ_q - OccBits'(left_q)} +
                (OccBits + 1)'($countones(req_valid_i & ~is_err &
                                                           Lanes'((1 << l) - 1)))
                < (OccBits + 1)'(flint_cfg_pkg::CrqEntries);
      lane_ok[l] = is_err[l] ||
                   (room[l] && sched_ready[l] &&
                    sub_ready[32'(lane_die[l*DieBits +: DieBits])*Lanes + l]);
    end
  end
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      prefix[l] = init_done;
      for (int unsigned j = 0; j < l; j++) prefix[l] = prefix[l] && (!req_valid_i[j] || lane_ok[j]);
    end
  end
  assign req_ready_o = prefix & lane_ok;
  assign fire = req_valid_i & req_ready_o;
  assign data_fire = fire & ~is_err;

  // --- the scheduler ---------------------------------------------------------------------------
  logic [Lanes*SlotBits-1:0] add_slot;
  logic [Lanes-1:0] unused_add_hit;
  logic sub_valid;
  logic [CountBits-1:0] sub_n;
  logic set_res, clr_res;
  logic [SlotBits-1:0] set_res_slot, clr_res_slot;
  logic pick_valid;
  logic [SlotBits-1:0] pick_slot;
  logic [BurstBits-1:0] pick_burst;
  logic [CountBits-1:0] act_count;
  logic unused_act_query_valid;
  logic [31:0] nxt_age;
  logic [SlotBits:0] unused_used;
  logic act_v_q, nxt_v_q;
  logic [SlotBits-1:0] act_slot_q, nxt_slot_q;
  flint_bbc_sched #(
    .Slots    (Slots),
    .BurstBits(BurstBits),
    .CountBits(CountBits),
    .Policy   (Policy),
    .AgeBits  (32),
    .AgeCap   (AgeCap),
    .Lanes    (Lanes)
  ) u_sched (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .add_req_i     (req_valid_i & ~is_err),
    .add_valid_i   (data_fire),
    .add_ready_o   (sched_ready),
    .add_burst_i   (lane_burst),
    .add_slot_o    (add_slot),
    .add_hit_o     (unused_add_hit),
    .sub_valid_i   (sub_valid),
    .sub_slot_i    (act_slot_q),
    .sub_n_i       (sub_n),
    .set_res_i     (set_res),
    .set_res_slot_i(set_res_slot),
    .clr_res_i     (clr_res),
    .clr_res_slot_i(clr_res_slot),
    .pick_valid_o  (pick_valid),
    .pick_slot_o   (pick_slot),
    .pick_burst_o  (pick_burst),
    .query_slot_i  (act_slot_q),
    .query_count_o (act_count),
    .query_valid_o (unused_act_query_valid),
    .age_slot_i    (nxt_slot_q),
    .age_o         (nxt_age),
    .used_o        (unused_used)
  );

  // --- the dies --------------------------------------------------------------------------------
  logic [Dies-1:0] die_pop, die_idle, die_can, die_rsp_valid, die_rsp_ready;
  logic [Dies*IdBits-1:0] die_rsp_id;
  logic [Dies*StW-1:0] die_rsp_status;
  logic [Dies*DataBits-1:0] die_rsp_data;
  logic [Dies*UsedBits-1:0] unused_die_used;
  logic [Dies*PreBits-1:0] die_pre_n;
  logic [Dies-1:0] die_pre_pop;
  logic serve_en, bcmd_valid;
  flint_pkg::nand_cmd_e bcmd_op;
  logic [StripeP*Dies-1:0] act_planes_q, nxt_planes_q, bcmd_planes;
  // A CacheEnd moves NEXT's pages: it names NEXT's planes; a Read or CacheRead the pick's.
  assign bcmd_planes = (bcmd_op == flint_pkg::NandCmdCacheEnd) ? nxt_planes_q : xlat_planes_i;
  for (genvar d = 0; d < Dies; d++) begin : g_die
    logic [Lanes-1:0] app_valid;
    logic [Lanes*SlotBits-1:0] app_slot;
    logic [Lanes*PayBits-1:0] app_data;
    // Sub-bank l takes lane l's append when lane l names this die.
    always_comb begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        app_valid[l] = data_fire[l] && 32'(lane_die[l*DieBits +: DieBits]) == d;
      end
    end
    assign app_slot = add_slot;
    assign app_data = lane_pay;
    flint_pkg::nand_cmd_e op;
    flint_bbc_die #(
      .Lanes     (Lanes),
      .Slots     (Slots),
      .SubEntries(SubEnt),
      .PreDepth  (PreDepth)
    ) u_die (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .app_valid_i      (app_valid),
      .app_ready_o      (sub_ready[d*Lanes +: Lanes]),
      .app_slot_i       (app_slot),
      .app_data_i       (app_data),
      .serve_en_i       (serve_en),
      .serve_slot_i     (act_slot_q),
      .serve_planes_i   (act_planes_q[d*StripeP +: StripeP]),
      .pop_o            (die_pop[d]),
      .next_en_i        (nxt_v_q),
      .next_slot_i      (nxt_slot_q),
      .move_i           (move_go),
      .pre_pop_o        (die_pre_pop[d]),
      .pre_n_o          (die_pre_n[d*PreBits +: PreBits]),
      .idle_o           (die_idle[d]),
      .used_o           (unused_die_used[d*UsedBits +: UsedBits]),
      .bcmd_valid_i     (bcmd_valid),
      .bcmd_can_o       (die_can[d]),
      .bcmd_op_i        (bcmd_op),
      .bcmd_page_i      (xlat_page_i),
      .bcmd_planes_i    (bcmd_planes[d*StripeP +: StripeP]),
      .bcmd_blocks_i    (xlat_blocks_i[d*StripeB +: StripeB]),
      .die_plane_idle_i (die_plane_idle_i[d*PhysPl +: PhysPl]),
      .die_plane_cache_i(die_plane_cache_i[d*PhysPl +: PhysPl]),
      .die_io_ready_i   (die_io_ready_i[d]),
      .nand_valid_o     (nand_valid_o[d]),
      .nand_op_o        (op),
      .nand_page_o      (nand_page_o[d*PageBits +: PageBits]),
      .nand_planes_o    (nand_planes_o[d*StripeP +: StripeP]),
      .nand_blocks_o    (nand_blocks_o[d*StripeB +: StripeB]),
      .nand_plane_o     (nand_plane_o[d*PPlBits +: PPlBits]),
      .nand_offset_o    (nand_offset_o[d*OffBits +: OffBits]),
      .nand_nbytes_o    (nand_nbytes_o[d*OffBits +: OffBits]),
      .die_data_valid_i (die_data_valid_i[d]),
      .die_data_i       (die_data_i[d*LineW +: LineW]),
      .rsp_valid_o      (die_rsp_valid[d]),
      .rsp_ready_i      (die_rsp_ready[d]),
      .rsp_id_o         (die_rsp_id[d*IdBits +: IdBits]),
      .rsp_status_o     (die_rsp_status[d*StW +: StW]),
      .rsp_data_o       (die_rsp_data[d*DataBits +: DataBits]),
      .fork_valid_o     (fork_valid_o[d]),
      .fork_lplane_o    (fork_lplane_o[d*LPlBits +: LPlBits]),
      .fork_line_o      (fork_line_o[d*LineBits +: LineBits]),
      .fork_status_o    (fork_status_o[d*StW +: StW]),
      .fork_data_o      (fork_data_o[d*DataBits +: DataBits])
    );
    assign nand_op_o[d*CmdW +: CmdW] = CmdW'(op);
  end

  // --- residency -------------------------------------------------------------------------------
  // The candidate: the pick of XlatLat cycles ago, whose stripe arrives now (and its
  // fetched-before bit, read a cycle after the pick, delayed to match). It goes if it is still
  // the pick, whatever the pick was in between: most-pending's pick may move to and fro while
  // requests arrive, and a stable-for-XlatLat rule would then rarely issue.
  logic [XlatLat-1:0] hv_q;
  logic [XlatLat*SlotBits-1:0] hs_q;
  logic [XlatLat*BurstBits-1:0] hb_q;
  logic cand_v_q;
  logic [SlotBits-1:0] cand_slot_q;
  logic [BurstBits-1:0] cand_burst_q;
  assign cand_v_q = hv_q[XlatLat-1];
  assign cand_slot_q = hs_q[(XlatLat-1)*SlotBits +: SlotBits];
  assign cand_burst_q = hb_q[(XlatLat-1)*BurstBits +: BurstBits];
  logic cand_ok, cand_go, fetched_before, stripes_eq;
  assign cand_ok = cand_v_q && pick_valid && pick_slot == cand_slot_q &&
                   pick_burst == cand_burst_q;
  assign cand_go = cand_ok && !park_i;
  assign stripes_eq = xlat_planes_i == nxt_planes_q;
  assign xlat_burst_o = pick_burst;

  logic [BurstBits-1:0] act_burst_q, nxt_burst_q;
  logic [BlockBits-1:0] act_lblock_q, nxt_lblock_q, cand_lblock;
  logic [PageBits-1:0] act_page_q, nxt_page_q;
  assign cand_lblock = xlat_lblock_i;
  logic [Slots*32-1:0] last_add_q;  // per slot: cycle of its last accepted request
  logic [31:0] now_q;
  logic act_drained, hold_ok, aged, all_can, all_idle, read_go, move_go, displace, drop_go;
  logic nxt_sensed;  // NEXT's arrays are idle on every die: its sense is done
  logic [31:0] act_quiet;  // cycles since ACTIVE's last request
  assign act_quiet = now_q - last_add_q[32'(act_slot_q)*32 +: 32];
  if (Hold == 0) begin : g_no_hold
    logic unused_quiet;
    assign unused_quiet = ^act_quiet;
    assign hold_ok = 1'b1;
  end else begin : g_hold
    assign hold_ok = act_quiet >= 32'(Hold);
  end
  assign all_can = &die_can;
  assign all_idle = &die_idle;
  always_comb begin
    act_drained = act_count == '0 && all_idle && hold_ok;
    aged = act_v_q && nxt_age >= 32'(AgeCap);
    // ACTIVE still has requests but NEXT has waited too long: once NEXT is sensed, stop
    // serving, let the pipeline empty, then move. ACTIVE serves until then (as in the model), so
    // a run of aged bursts still makes progress: each is served for at least a sense time.
    displace = nxt_v_q && aged && !(act_count == '0 && hold_ok) && nxt_sensed;
    read_go = init_done && !nxt_v_q && cand_go && all_can;
    move_go = init_done && nxt_v_q && all_can && all_idle && (!act_v_q || act_drained || aged) &&
              !hold_i;
    // Parked: ACTIVE is let go once drained and nothing follows it.
    drop_go = park_i && act_v_q && !nxt_v_q && act_count == '0 && all_idle;
    bcmd_valid = read_go || move_go;
    serve_en = act_v_q && !displace;
    set_res = read_go || (move_go && bcmd_op == flint_pkg::NandCmdCacheRead);
    set_res_slot = cand_slot_q;
    clr_res = (move_go && act_v_q) || drop_go;
    clr_res_slot = act_slot_q;
  end
  // A move does not wait for a pick whose stripe is not at hand yet: CacheEnd now and a Read
  // next costs the NAND nothing over a CacheRead (both start with the cache transfer), and the
  // new ACTIVE starts a cycle earlier (as the model does). Its own assignment: the dies' readiness
  // depends on the planes it names.
  assign bcmd_op = !nxt_v_q ? flint_pkg::NandCmdRead :
                   ((cand_go && stripes_eq) ? flint_pkg::NandCmdCacheRead :
                                              flint_pkg::NandCmdCacheEnd);
  assign sense_o = set_res;
  assign sense_burst_o = cand_burst_q;
  assign sense_lblock_o = cand_lblock;

  // Physical planes whose buffers hold ACTIVE or NEXT, per die: from registers only, so in a
  // block of their own (with the dies' plane-idle input in it, the Verilated model would
  // recompute the masks in every evaluation instead of once a clock edge; docs/build.md).
  logic [Dies*PhysPl-1:0] act_mask, nxt_mask;
  always_comb begin
    act_mask = '0;
    nxt_mask = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      for (int unsigned p = 0; p < Planes; p++) begin
        act_mask[d*PhysPl + 32'(act_planes_q[(d*Planes + p)*PPlBits +: PPlBits])] = 1'b1;
        nxt_mask[d*PhysPl + 32'(nxt_planes_q[(d*Planes + p)*PPlBits +: PPlBits])] = 1'b1;
      end
    end
  end
  assign nxt_sensed = &(die_plane_idle_i | ~nxt_mask);
  assign res_planes_o = (act_v_q ? act_mask : '0) | (nxt_v_q ? nxt_mask : '0);
  assign sense_free_o = park_i && !nxt_v_q;
  // Parked from the cycle ACTIVE is let go (its last line's data returns that cycle).
  assign parked_o = park_i && !nxt_v_q && all_idle && (!act_v_q || act_count == '0);
  assign empty_o = occ_q == '0 && all_idle;
  assign act_valid_o = act_v_q;
  assign act_new_o = move_go;
  assign act_change_o = clr_res;
  assign act_lblock_o = act_lblock_q;
  assign act_page_o = act_page_q;

  // Pops of ACTIVE on every die this cycle, and in the cycle after a move the lines the dies
  // staged for it while it was NEXT (the scheduler has one sub port, and that is ACTIVE's).
  logic [CountBits-1:0] staged_q, staged_d;
  always_comb begin
    staged_d = '0;
    for (int unsigned d = 0; d < Dies; d++) begin
      staged_d = staged_d + CountBits'(die_pre_n[d*PreBits +: PreBits]);
    end
    sub_n = staged_q;
    for (int unsigned d = 0; d < Dies; d++) sub_n = sub_n + CountBits'(die_pop[d]);
  end
  assign left_q = CountBits'($countones(die_pop)) + CountBits'($countones(die_pre_pop));
  assign sub_valid = sub_n != '0;

  // --- fetched-before bitmap: one bit a burst, read with the pick, set at its sense ----------
  logic [0:0] fetched_rd;
  flint_sram #(
    .Width(1),
    .Depth(Bursts)
  ) u_fetched (
    .clk_i    (clk_i),
    .rd_en_i  (1'b1),
    .rd_addr_i(pick_burst),
    .rd_data_o(fetched_rd),
    .wr_en_i  (!init_done || set_res),
    .wr_addr_i(init_done ? cand_burst_q : sweep_q[BurstBits-1:0]),
    .wr_data_i(init_done)
  );
  if (XlatLat == 1) begin : g_fetched_now
    assign fetched_before = fetched_rd[0];
  end else begin : g_fetched_delayed
    logic [XlatLat-2:0] fb_q;  // the bit of the pick of 2, 3, ... cycles ago
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) fb_q <= '0;
      else fb_q <= (XlatLat - 1)'({fb_q, fetched_rd[0]});
    end
    assign fetched_before = fb_q[XlatLat-2];
  end

  // --- response lanes --------------------------------------------------------------------------
  logic [Lanes-1:0] err_v_q;
  logic [Lanes*IdBits-1:0] err_id_q;
  logic [Lanes*StW-1:0] err_st_q;
  logic [Lanes-1:0] lane_die_v;
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [DiesPerLn-1:0] req, gnt;
    logic any;
    logic [DplBits-1:0] idx;
    for (genvar k = 0; k < DiesPerLn; k++) begin : g_req
      if (l + k * Lanes < Dies) begin : g_die
        assign req[k] = die_rsp_valid[l + k * Lanes];
        assign die_rsp_ready[l + k * Lanes] = gnt[k] && !err_v_q[l];
      end else begin : g_none
        assign req[k] = 1'b0;
      end
    end
    flint_rr_arb #(
      .N(DiesPerLn)
    ) u_arb (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .req_i      (req),
      .gnt_o      (gnt),
      .out_valid_o(any),
      .out_ready_i(!err_v_q[l]),
      .out_idx_o  (idx)
    );
    // The winner's response: a mux over this lane's dies only (not a shift over all dies).
    logic [IdBits-1:0] win_id;
    logic [StW-1:0] win_st;
    logic [DataBits-1:0] win_data;
    always_comb begin
      win_id = '0;
      win_st = '0;
      win_data = '0;
      for (int unsigned k = 0; k < DiesPerLn; k++) begin
        if (l + k * Lanes < Dies && idx == DplBits'(k)) begin
          win_id = die_rsp_id[(l + k * Lanes)*IdBits +: IdBits];
          win_st = die_rsp_status[(l + k * Lanes)*StW +: StW];
          win_data = die_rsp_data[(l + k * Lanes)*DataBits +: DataBits];
        end
      end
    end
    assign lane_die_v[l] = any && !err_v_q[l];
    always_comb begin
      rsp_valid_o[l] = err_v_q[l] || any;
      rsp_id_o[l*IdBits +: IdBits] = err_v_q[l] ? err_id_q[l*IdBits +: IdBits] : win_id;
      rsp_status_o[l*StW +: StW] = err_v_q[l] ? err_st_q[l*StW +: StW] : win_st;
      rsp_data_o[l*DataBits +: DataBits] = err_v_q[l] ? '0 : win_data;
    end
  end

  // --- state -----------------------------------------------------------------------------------
  logic [OccBits-1:0] occ_d;
  logic [63:0] st_req_q, st_rsp_q, st_bursts_q, st_refetch_q, st_lines_q, st_slots_q;
  logic [63:0] st_busy_q, st_hw_q, st_disp_q, st_park_q;
  always_comb begin
    // A staged line leaves the queue's count when it is popped, so the port can take the burst
    // after NEXT before the move (a sweep fills the queue with NEXT otherwise).
    occ_d = occ_q + OccBits'($countones(data_fire)) - OccBits'(left_q);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sweep_q <= '0;
      staged_q <= '0;
      now_q <= '0;
      hv_q <= '0;
      hs_q <= '0;
      hb_q <= '0;
      act_lblock_q <= '0;
      act_page_q <= '0;
      nxt_lblock_q <= '0;
      nxt_page_q <= '0;
      st_park_q <= '0;
      act_v_q <= 1'b0;
      act_slot_q <= '0;
      act_burst_q <= '0;
      act_planes_q <= '0;
      nxt_v_q <= 1'b0;
      nxt_slot_q <= '0;
      nxt_burst_q <= '0;
      nxt_planes_q <= '0;
      last_add_q <= '0;
      err_v_q <= '0;
      err_id_q <= '0;
      err_st_q <= '0;
      occ_q <= '0;
      st_req_q <= '0;
      st_rsp_q <= '0;
      st_bursts_q <= '0;
      st_refetch_q <= '0;
      st_lines_q <= '0;
      st_slots_q <= '0;
      st_busy_q <= '0;
      st_hw_q <= '0;
      st_disp_q <= '0;
    end else begin
      if (!init_done) sweep_q <= sweep_q + 1'b1;
      staged_q <= move_go ? staged_d : '0;
      now_q <= now_q + 1'b1;
      hv_q <= (XlatLat > 1) ? XlatLat'({hv_q, pick_valid}) : XlatLat'(pick_valid);
      hs_q <= (XlatLat > 1) ? (XlatLat*SlotBits)'({hs_q, pick_slot}) :
                              (XlatLat*SlotBits)'(pick_slot);
      hb_q <= (XlatLat > 1) ? (XlatLat*BurstBits)'({hb_q, pick_burst}) :
                              (XlatLat*BurstBits)'(pick_burst);
      st_park_q <= st_park_q + 64'(park_i && occ_q != '0);
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (data_fire[l]) last_add_q[32'(add_slot[l*SlotBits +: SlotBits])*32 +: 32] <= now_q;
      end
      if (move_go) begin
        act_v_q <= 1'b1;
        act_slot_q <= nxt_slot_q;
        act_burst_q <= nxt_burst_q;
        act_planes_q <= nxt_planes_q;
        act_lblock_q <= nxt_lblock_q;
        act_page_q <= nxt_page_q;
      end else if (drop_go) begin
        act_v_q <= 1'b0;
      end
      if (set_res) begin
        nxt_v_q <= 1'b1;
        nxt_slot_q <= cand_slot_q;
        nxt_burst_q <= cand_burst_q;
        nxt_planes_q <= xlat_planes_i;
        nxt_lblock_q <= cand_lblock;
        nxt_page_q <= xlat_page_i;
      end else if (move_go) begin
        nxt_v_q <= 1'b0;
      end
      for (int unsigned l = 0; l < Lanes; l++) begin
        err_v_q[l] <= fire[l] && is_err[l];
        err_id_q[l*IdBits +: IdBits] <= req_id_i[l*IdBits +: IdBits];
        err_st_q[l*StW +: StW] <= is_oor[l] ? StW'(flint_pkg::StatusOutOfRange) :
                                              StW'(flint_pkg::StatusNotLoaded);
      end
      occ_q <= occ_d;
      st_req_q <= st_req_q + 64'($countones(fire));
      st_rsp_q <= st_rsp_q + 64'($countones(rsp_valid_o));
      st_bursts_q <= st_bursts_q + 64'(set_res);
      st_refetch_q <= st_refetch_q + 64'(set_res && fetched_before);
      st_lines_q <= st_lines_q + 64'($countones(lane_die_v));
      st_slots_q <= st_slots_q + 64'($countones(rsp_valid_o));
      st_busy_q <= st_busy_q + 64'(|rsp_valid_o);
      if (64'(occ_d) > st_hw_q) st_hw_q <= 64'(occ_d);
      st_disp_q <= st_disp_q + 64'(move_go && act_v_q && act_count != '0);
    end
  end
  assign stat_requests_o = st_req_q;
  assign stat_responses_o = st_rsp_q;
  assign stat_bursts_o = st_bursts_q;
  assign stat_refetched_o = st_refetch_q;
  assign stat_useful_bytes_o = st_lines_q * 64'(flint_cfg_pkg::ClBytes);
  assign stat_fetched_bytes_o = st_bursts_q * 64'(flint_cfg_pkg::BurstBytes);
  assign stat_link_slots_o = st_slots_q;
  assign stat_busy_cycles_o = st_busy_q;
  assign stat_queue_high_water_o = st_hw_q;
  assign stat_displacements_o = st_disp_q;
  assign stat_park_wait_o = st_park_q;

  // --- invariants ------------------------------------------------------------------------------
  logic [BurstBits-1:0] unused_burst;
  assign unused_burst = act_burst_q ^ nxt_burst_q;
  // The scheduler never picks a resident burst, so a sense never names ACTIVE or NEXT.
  `FLINT_ASSERT_IMPLY(SenseNotResident, set_res,
                      !(act_v_q && cand_burst_q == act_burst_q && !clr_res) &&
                      !(nxt_v_q && !move_go && cand_burst_q == nxt_burst_q))
  // Lines are served only from the cache buffers that hold ACTIVE.
  `FLINT_ASSERT_IMPLY(ServeOnlyActive, |die_pop, act_v_q)
  `FLINT_ASSERT_IMPLY(MoveOnlyDrained, move_go,
                      !act_v_q || all_idle)
  `FLINT_ASSERT(QueueNoUnderflow, occ_q >= OccBits'(left_q))
  `FLINT_ASSERT(QueueBounded, occ_q <= OccBits'(flint_cfg_pkg::CrqEntries))
  // Every die takes a burst command in the same cycle, so ACTIVE and NEXT are stack-wide.
  `FLINT_ASSERT_IMPLY(CommandAllDies, bcmd_valid, all_can)
  // Parked means parked: no sense, no line served. Sense-free: no burst command at all (no
  // sense, no move), so a maintenance read owns the page buffers. Held: nothing moves into the
  // cache buffers, so one emptied for a maintenance read stays empty (nothing served from it).
  `FLINT_ASSERT_IMPLY(NoSenseWhileParked, park_i, !set_res)
  `FLINT_ASSERT_IMPLY(NothingServedWhenParked, parked_o, !(|die_pop) && !bcmd_valid)
  `FLINT_ASSERT_IMPLY(NoBurstCmdWhenSenseFree, sense_free_o, !bcmd_valid)
  `FLINT_ASSERT_IMPLY(NoMoveWhileHeld, hold_i, !move_go)
  `FLINT_ASSERT_IMPLY(HeldCacheStaysEmpty, $past(hold_i && !act_v_q), !act_v_q && !(|die_pop))
endmodule
`default_nettype wire
