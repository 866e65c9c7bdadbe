// The write side of one refresh die (docs/refresh.md, "The phantom's write path", "The switch
// and the erase"): the program engine, the erase engine and the die's client port on its
// maintenance sequencer.
//   program  the program queue's head page into the phantom P at tgt[b] (the parent's table,
//            read at the queue's head block): a ProgramPage, then its lines (poisoned ones
//            flagged; the sequencer encodes them). The next page is asked for only once the last
//            is answered, so no request waits in the sequencer for P's busy plane while a scrub
//            read could go.
//   erase    during the rotation's erase phase, each block of S in turn: EraseBlock if it held a
//            live block, then Release (the parent's relocation command), then the read-count
//            reset (the parent's counter command).
//   port     the scrubber's ReadPage, the EraseBlock and the ProgramPage share the port: scrubber
//            first, then erase, then program, a request held until taken. Each engine has one
//            transaction in flight and its tag names it, so every answer goes back to its engine.
// A failed program or erase, and an answer refusing an address, are reported (the parent halts).
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_copy #(
  // do not override
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // the rotation: phantom and source planes
  input  logic [PPlBits-1:0]       phantom_i,
  input  logic [PPlBits-1:0]       source_i,
  // the scrubber's ReadPage (S's block and page), taken (go), answered (rsp)
  input  logic                     sc_req_i,
  input  logic [BlockBits-1:0]     sc_pblock_i,
  input  logic [PageBits-1:0]      sc_page_i,
  output logic                     sc_go_o,
  output logic                     sc_rsp_o,
  // the program queue's head (page, lines) and tgt[] of its block (a cycle after it is asked)
  input  logic                     pq_valid_i,
  output logic                     pq_ready_o,
  input  logic [PageBits-1:0]      pq_page_i,
  input  logic                     pq_last_i,
  input  logic [DataBits:0]        pq_data_i,    // {poison, data}
  input  logic [BlockBits-1:0]     tgt_rd_i,
  output logic                     pg_idle_o,    // no page taken from the queue
  output logic                     pg_pend_o,    // a program asked for and not answered yet
  // the erase phase: S's block at hand (more_i: one is left), whether it holds a live block
  input  logic                     erase_i,       // the rotation is in its erase phase
  input  logic                     erase_start_i, // it enters it next cycle
  input  logic                     erase_more_i,
  input  logic [BlockBits-1:0]     erase_block_i,
  input  logic                     erase_live_i,
  input  logic                     rc_rsp_valid_i, // the Release answered
  input  logic                     cc_rsp_valid_i, // the read-count reset answered
  output logic                     er_release_o,   // Release S's block now
  output logic                     er_count_o,     // reset its read count now
  // errors: a failed program, a failed erase, an address the sequencer refused
  output logic                     prog_fail_o,
  output logic                     erase_fail_o,
  output logic                     addr_bad_o,
  // this die's maintenance sequencer (through its flint_maint_arb)
  output logic                     mreq_valid_o,
  input  logic                     mreq_ready_i,
  output flint_pkg::maint_req_t    mreq_o,
  output logic                     mwr_valid_o,
  input  logic                     mwr_ready_i,
  output logic [DataBits-1:0]      mwr_data_o,
  output logic                     mwr_poison_o,
  input  logic                     mrsp_valid_i,
  output logic                     mrsp_ready_o,
  input  flint_pkg::maint_rsp_t    mrsp_i,
  // statistics
  output logic [31:0]              programmed_o,   // pages programmed into the phantom
  output logic [31:0]              erased_o        // blocks erased
);
  // The engines' tags (one transaction in flight each): the scrubber's read, a program, an erase.
  localparam logic [flint_pkg::MaintTagBits-1:0] TagScrub = flint_pkg::MaintTagBits'(0);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagProg  = flint_pkg::MaintTagBits'(1);
  localparam logic [flint_pkg::MaintTagBits-1:0] TagErase = flint_pkg::MaintTagBits'(2);

  // The sequencer's answers, to the engine their tag names (each takes its answer at once).
  logic rsp_prog, rsp_erase;
  assign mrsp_ready_o = 1'b1;
  assign sc_rsp_o = mrsp_valid_i && mrsp_i.tag == TagScrub;
  assign rsp_prog = mrsp_valid_i && mrsp_i.tag == TagProg;
  assign rsp_erase = mrsp_valid_i && mrsp_i.tag == TagErase;
  // A status no transaction of this die should get (a program's or erase's failure is its own).
  assign addr_bad_o = mrsp_valid_i && mrsp_i.status == flint_pkg::MaintBadAddress;
  logic unused_rsp;
  assign unused_rsp = ^{mrsp_i.op, mrsp_i.plane, mrsp_i.block, mrsp_i.page};

  // --- program engine: queued pages into the phantom, one after the other ---------------------
  typedef enum logic [2:0] {
    PgIdle  = 3'd0,
    PgTgt   = 3'd1,  // tgt[] of the head page at hand next cycle
    PgWait  = 3'd2,  // the last program answered
    PgReq   = 3'd3,  // ProgramPage of the head page
    PgBeats = 3'd4   // its lines
  } prog_e;
  prog_e pg_q, pg_d;
  logic [BlockBits-1:0] pg_y_q;
  logic [PageBits-1:0] pg_page_q;
  logic pg_pend_q;
  logic [31:0] programmed_q, erased_q;
  logic pg_req, pg_go, pg_beat_go;
  assign pg_req = pg_q == PgReq;
  assign mwr_valid_o = pg_q == PgBeats && pq_valid_i;
  assign mwr_data_o = pq_data_i[DataBits-1:0];
  assign mwr_poison_o = pq_data_i[DataBits];
  assign pq_ready_o = pg_q == PgBeats && mwr_ready_i;
  assign pg_beat_go = mwr_valid_o && mwr_ready_i;
  assign prog_fail_o = rsp_prog && mrsp_i.status == flint_pkg::MaintProgramFail;
  always_comb begin
    pg_d = pg_q;
    unique case (pg_q)
      PgIdle: if (pq_valid_i) pg_d = PgTgt;
      PgTgt: pg_d = PgWait;
      PgWait: if (!pg_pend_q) pg_d = PgReq;
      PgReq: if (pg_go) pg_d = PgBeats;
      PgBeats: if (pg_beat_go && pq_last_i) pg_d = PgIdle;
      default: pg_d = PgIdle;
    endcase
  end
  // A program counts when its last line is in (the sequencer programs it next); it is pending
  // until answered.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pg_q <= PgIdle;
      pg_y_q <= '0;
      pg_page_q <= '0;
      pg_pend_q <= 1'b0;
      programmed_q <= '0;
    end else begin
      pg_q <= pg_d;
      if (pg_q == PgTgt) pg_page_q <= pq_page_i;
      if (pg_q == PgWait) pg_y_q <= tgt_rd_i;
      if (pg_go) pg_pend_q <= 1'b1;
      else if (rsp_prog) pg_pend_q <= 1'b0;
      if (pg_beat_go && pq_last_i) programmed_q <= programmed_q + 1'b1;
    end
  end
  assign pg_idle_o = pg_q == PgIdle;
  assign pg_pend_o = pg_pend_q;
  assign programmed_o = programmed_q;

  // --- erase engine -----------------------------------------------------------------------------
  typedef enum logic [2:0] {
    ErNext    = 3'd0,  // next block of S
    ErCmd     = 3'd1,  // EraseBlock
    ErWait    = 3'd2,  // its answer
    ErRelease = 3'd3,  // Release (relocation table)
    ErCount   = 3'd4   // read-count reset
  } erase_e;
  erase_e er_q, er_d;
  logic er_req, er_go;
  assign er_req = erase_i && er_q == ErCmd;
  assign erase_fail_o = er_q == ErWait && rsp_erase && mrsp_i.status == flint_pkg::MaintEraseFail;
  always_comb begin
    er_d = er_q;
    if (erase_i) begin
      unique case (er_q)
        ErNext: if (erase_more_i) er_d = erase_live_i ? ErCmd : ErRelease;
        ErCmd: if (er_go) er_d = ErWait;
        ErWait: if (rsp_erase) er_d = ErRelease;
        ErRelease: if (rc_rsp_valid_i) er_d = ErCount;
        ErCount: if (cc_rsp_valid_i) er_d = ErNext;
        default: er_d = ErNext;
      endcase
    end
    if (erase_start_i) er_d = ErNext;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      er_q <= ErNext;
      erased_q <= '0;
    end else begin
      er_q <= er_d;
      if (er_go) erased_q <= erased_q + 1'b1;
    end
  end
  assign er_release_o = er_q == ErRelease;
  assign er_count_o = er_q == ErCount;
  assign erased_o = erased_q;

  // --- requests to the sequencer: scrubber, then erase, then program; held once offered -------
  typedef enum logic [1:0] {
    RqScrub = 2'd0,
    RqErase = 2'd1,
    RqProg  = 2'd2
  } req_sel_e;
  req_sel_e rq_sel, rq_sel_q;
  logic rq_hold_q, req_go;
  always_comb begin
    rq_sel = sc_req_i ? RqScrub : (er_req ? RqErase : RqProg);
    if (rq_hold_q) rq_sel = rq_sel_q;
  end
  assign mreq_valid_o = rq_hold_q || sc_req_i || er_req || pg_req;
  assign req_go = mreq_valid_o && mreq_ready_i;
  assign sc_go_o = req_go && rq_sel == RqScrub;
  assign er_go = req_go && rq_sel == RqErase;
  assign pg_go = req_go && rq_sel == RqProg;
  always_comb begin
    mreq_o = '0;
    unique case (rq_sel)
      RqScrub: begin
        mreq_o.tag = TagScrub;
        mreq_o.op = flint_pkg::MaintReadPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(source_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(sc_pblock_i);
        mreq_o.page = flint_pkg::MaintPageBits'(sc_page_i);
      end
      RqErase: begin
        mreq_o.tag = TagErase;
        mreq_o.op = flint_pkg::MaintEraseBlock;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(source_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(erase_block_i);
      end
      default: begin
        mreq_o.tag = TagProg;
        mreq_o.op = flint_pkg::MaintProgramPage;
        mreq_o.plane = flint_pkg::MaintPlaneBits'(phantom_i);
        mreq_o.block = flint_pkg::MaintBlockBits'(pg_y_q);
        mreq_o.page = flint_pkg::MaintPageBits'(pg_page_q);
      end
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_hold_q <= 1'b0;
      rq_sel_q <= RqScrub;
    end else begin
      rq_hold_q <= mreq_valid_o && !mreq_ready_i;
      rq_sel_q <= rq_sel;
    end
  end

  // Programs only into the phantom.
  `FLINT_ASSERT_IMPLY(ProgramOnlyPhantom, mreq_valid_o &&
                      mreq_o.op == flint_pkg::MaintProgramPage,
                      mreq_o.plane == flint_pkg::MaintPlaneBits'(phantom_i))
  // Each engine one transaction at a time: an answer only for one asked for, program beats only
  // after the program's request.
  `FLINT_ASSERT_IMPLY(ProgAnswerAsked, rsp_prog, pg_pend_q)
  `FLINT_ASSERT_IMPLY(EraseAnswerAsked, rsp_erase, er_q == ErWait)
  `FLINT_ASSERT_IMPLY(OneProgramAsked, pg_go, !pg_pend_q)
  `FLINT_ASSERT_IMPLY(RequestHeld, $past(mreq_valid_o && !mreq_ready_i),
                      mreq_valid_o && $stable(mreq_o))
  `FLINT_COVER(c_program, pg_go)
  `FLINT_COVER(c_requests_contend, $countones({sc_req_i, er_req, pg_req}) > 1)
endmodule
`default_nettype wire
