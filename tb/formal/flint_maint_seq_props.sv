// Formal property wrapper of flint_maint_seq (docs/formal.md, proof `maint_seq`; run by
// scripts/formal.py) at the formal_tiny config (2 + 1 planes of 2 blocks of 2 pages of 2 lines),
// as flint_top builds it (OutDepth 0: no line buffer). Issue #24's "every accepted request is
// answered exactly once", for the die's maintenance sequencer, proven by induction:
//   - a response only for an outstanding tag, and every outstanding tag held in exactly one place:
//     the front end's request or one plane's slot (the block's own TagsAccounted, with the set
//     itself as the invariant here), so none is lost or answered twice;
//   - for a request the solver picks (pick_i on its acceptance): its response echoes its op and
//     address, its status is one its op can have (MaintBadOp exactly when its op is none of the
//     three, else MaintBadAddress exactly when its address lies past the die), and a ReadPage in
//     range returns exactly its Lines lines, in order, before its response (none if refused);
//   - the block's own assertions: commands only under the controller's release and to an idle
//     plane, one program or erase a plane, a returned line always taken (LineRoom), payloads
//     stable under back-pressure.
// Environment (assumed; each is the contract of a neighbour): reset in the first cycle; the
// client holds a request and a program beat until taken, keeps its outstanding tags distinct
// (tags 0..3 here) and holds rd_ready from a data-out until its line is back
// (ClientReadyForLine: the scrubber's room check, the in-place die's read-out state); the
// controller is parked only when sense-free; the die returns data only for a data-out in flight
// (flint_die_port) with a decoder status OK, CORRECTED or UNCORRECTABLE. Everything else (plane
// busy, cache, fail, I/O ready, the port's ready, the controller's park timing, data) is free.
// tap_* inputs are bound by scripts/formal.py to internal signals.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_maint_seq_props #(
  // do not override
  localparam int unsigned PhysPl   = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned Blocks   = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages    = flint_cfg_pkg::Pages,
  localparam int unsigned Lines    = flint_cfg_pkg::ClPerPage,
  localparam int unsigned PPlBits  = (PhysPl > 1) ? $clog2(PhysPl) : 1,
  localparam int unsigned BlkBits  = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned LineBits = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned DataBits = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW    = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW     = flint_pkg::NandCmdWidth,
  localparam int unsigned TagW     = flint_pkg::MaintTagBits,
  localparam int unsigned StW      = flint_pkg::StatusWidth,
  localparam int unsigned PgW      = flint_pkg::MaintPageBits,
  localparam int unsigned NTags    = 4,                  // the tags the client uses here
  localparam int unsigned CntW     = $clog2(Lines + 2)   // lines of the tracked read
) (
  input logic                     clk_i,
  input logic                     rst_ni,
  input logic                     req_valid_i,
  input flint_pkg::maint_req_t    req_i,
  input logic                     wr_valid_i,
  input logic [DataBits-1:0]      wr_data_i,
  input logic                     wr_poison_i,
  input logic                     rd_ready_i,
  input logic                     rsp_ready_i,
  input logic                     sense_free_i,
  input logic                     parked_i,
  input logic [PhysPl-1:0]        plane_idle_i,
  input logic [PhysPl-1:0]        plane_cache_i,
  input logic [PhysPl-1:0]        plane_fail_i,
  input logic                     io_ready_i,
  input logic                     m_ready_i,
  input logic                     dout_valid_i,
  input logic [DataBits-1:0]      dout_data_i,
  input logic [StW-1:0]           dout_status_i,
  input logic                     pick_i,     // track the request accepted in this cycle
  // bound to internals by scripts/formal.py
  input logic [3:0]               tap_st,
  input flint_pkg::maint_req_t    tap_req,
  input logic                     tap_busy,
  input logic [(1 << TagW)-1:0]   tap_tags,
  input logic [PhysPl-1:0]        tap_act,
  input logic [PhysPl-1:0]        tap_done,
  input logic [PhysPl-1:0]        tap_erase,
  input logic [PhysPl*TagW-1:0]   tap_tag,
  input logic [PhysPl*BlkBits-1:0] tap_sblk,
  input logic [PhysPl*PgW-1:0]    tap_spg,
  input logic                     tap_inflight,
  input logic [LineBits-1:0]      tap_out,
  input logic [LineBits-1:0]      tap_rd_line,
  input logic                     tap_hold,
  input logic [$clog2(PhysPl + 1)-1:0] tap_sel,
  input flint_pkg::maint_status_e tap_status
);
  // flint_maint_seq's states (its state_e)
  localparam logic [3:0] SIdle = 4'd0, SPark = 4'd1, SMove = 4'd4, SOut = 4'd5, SDrain = 4'd6,
                         SPgWait = 4'd7, SBeats = 4'd8, SPgCmd = 4'd9, SErCmd = 4'd10,
                         SRsp = 4'd11, SRdWait = 4'd12;
  logic req_ready, wr_ready, rd_valid, rd_last, rsp_valid, park, hold, m_valid, din_valid;
  logic [DataBits-1:0] rd_data;
  flint_pkg::status_e rd_status;
  logic [LineBits-1:0] rd_line;
  flint_pkg::maint_rsp_t rsp;
  logic [CmdW-1:0] m_op;
  logic [PPlBits-1:0] m_plane;
  logic [BlkBits-1:0] m_block;
  logic [((Pages > 1) ? $clog2(Pages) : 1)-1:0] m_page;
  logic [LineBits-1:0] m_line;
  logic [LineW-1:0] din_data;
  logic unused;
  assign unused = ^{rd_data, rd_status, rd_last, park, hold, m_valid, m_op, m_plane, m_block, m_page, m_line,
                    din_valid, din_data};

  flint_maint_seq #(.OutDepth(0)) u_dut (
    .clk_i, .rst_ni,
    .req_valid_i, .req_ready_o(req_ready), .req_i,
    .wr_valid_i, .wr_ready_o(wr_ready), .wr_data_i, .wr_poison_i,
    .rd_valid_o(rd_valid), .rd_ready_i, .rd_data_o(rd_data), .rd_status_o(rd_status),
    .rd_line_o(rd_line), .rd_last_o(rd_last),
    .rsp_valid_o(rsp_valid), .rsp_ready_i, .rsp_o(rsp),
    .park_o(park), .hold_o(hold), .sense_free_i, .parked_i,
    .plane_idle_i, .plane_cache_i, .plane_fail_i, .io_ready_i,
    .m_valid_o(m_valid), .m_ready_i, .m_op_o(m_op), .m_plane_o(m_plane), .m_block_o(m_block),
    .m_page_o(m_page), .m_line_o(m_line),
    .din_valid_o(din_valid), .din_data_o(din_data),
    .dout_valid_i, .dout_data_i, .dout_status_i
  );

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  logic req_go, rsp_go, rd_go;
  assign req_go = req_valid_i && req_ready;
  assign rsp_go = rsp_valid && rsp_ready_i;
  assign rd_go = rd_valid && rd_ready_i;

  // --- the environment ---------------------------------------------------------------------------
  logic req_wait_q, wr_wait_q;
  flint_pkg::maint_req_t req_prev_q;
  logic [DataBits-1:0] wr_prev_q;
  logic wr_poison_prev_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_wait_q <= 1'b0;
      wr_wait_q <= 1'b0;
      req_prev_q <= '0;
      wr_prev_q <= '0;
      wr_poison_prev_q <= 1'b0;
    end else begin
      req_wait_q <= req_valid_i && !req_ready;
      wr_wait_q <= wr_valid_i && !wr_ready;
      req_prev_q <= req_i;
      wr_prev_q <= wr_data_i;
      wr_poison_prev_q <= wr_poison_i;
    end
  end
  always @(*) begin
    // Nothing offered in reset (the block's own stability checks look one cycle back).
    if (!rst_ni) assume (!req_valid_i && !wr_valid_i && !dout_valid_i);
    if (rst_ni) begin
      // A request and a beat held until taken.
      if (req_wait_q) assume (req_valid_i && req_i == req_prev_q);
      if (wr_wait_q) assume (wr_valid_i && wr_data_i == wr_prev_q && wr_poison_i == wr_poison_prev_q);
      // Tags 0..3, an outstanding one never offered again.
      if (req_valid_i) assume (32'(req_i.tag) < NTags && !tap_tags[req_i.tag]);
      // The controller: parked only when its page buffers are free.
      if (parked_i) assume (sense_free_i);
      // The die: data only for a data-out in flight, with a decoder status.
      if (dout_valid_i) assume (tap_inflight);
      assume (dout_status_i == StW'(flint_pkg::StatusOk) ||
              dout_status_i == StW'(flint_pkg::StatusCorrected) ||
              dout_status_i == StW'(flint_pkg::StatusUncorrectable));
      // The client: ready from a data-out until its line is back.
      if (tap_inflight) assume (rd_ready_i);
    end
  end

  // --- the outstanding tags, as a set: exactly the front end's and the slots' -----------------
  logic [NTags-1:0] held;  // tags held by the front end or a slot
  logic slots_distinct;
  logic [TagW-1:0] st;
  always @(*) begin
    held = '0;
    slots_distinct = 1'b1;
    st = '0;
    if (tap_busy) held[tap_req.tag[1:0]] = 1'b1;
    for (int p = 0; p < PhysPl; p++) begin
      st = tap_tag[p*TagW +: TagW];
      if (tap_act[p]) begin
        if (held[st[1:0]] || 32'(st) >= NTags) slots_distinct = 1'b0;
        held[st[1:0]] = 1'b1;
      end
    end
  end

  // --- the tracked request -----------------------------------------------------------------------
  logic trk_q, ans_q;               // tracked and not yet answered; answered
  flint_pkg::maint_req_t t_q;
  logic t_bad_q;                    // its address lies past the die
  logic t_badop_q;                  // its op is none of the three
  logic [CntW-1:0] t_lines_q;       // its lines returned so far
  logic t_bad, t_badop;
  assign t_badop = req_i.op != flint_pkg::MaintReadPage && req_i.op != flint_pkg::MaintProgramPage &&
                   req_i.op != flint_pkg::MaintEraseBlock;
  assign t_bad = 32'(req_i.plane) >= PhysPl || 32'(req_i.block) >= Blocks ||
                 (req_i.op != flint_pkg::MaintEraseBlock && 32'(req_i.page) >= Pages);
  logic t_bad_now, t_badop_now;  // the same of the tracked request
  assign t_badop_now = t_q.op != flint_pkg::MaintReadPage &&
                       t_q.op != flint_pkg::MaintProgramPage && t_q.op != flint_pkg::MaintEraseBlock;
  assign t_bad_now = 32'(t_q.plane) >= PhysPl || 32'(t_q.block) >= Blocks ||
                     (t_q.op != flint_pkg::MaintEraseBlock && 32'(t_q.page) >= Pages);
  logic t_start, t_rsp, t_fe;
  assign t_start = req_go && pick_i && !trk_q && !ans_q;
  assign t_rsp = trk_q && rsp_go && rsp.tag == t_q.tag;
  assign t_fe = trk_q && tap_busy && tap_req.tag == t_q.tag;  // in the front end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      trk_q <= 1'b0;
      ans_q <= 1'b0;
      t_q <= '0;
      t_bad_q <= 1'b0;
      t_badop_q <= 1'b0;
      t_lines_q <= '0;
    end else begin
      if (t_start) begin
        trk_q <= 1'b1;
        t_q <= req_i;
        t_bad_q <= t_bad;
        t_badop_q <= t_badop;
        t_lines_q <= '0;
      end
      if (t_fe && rd_go) t_lines_q <= t_lines_q + 1'b1;
      if (t_rsp) begin
        trk_q <= 1'b0;
        ans_q <= 1'b1;
      end
    end
  end
  logic t_slot;  // in its plane's slot
  always @(*) begin
    t_slot = 1'b0;
    for (int p = 0; p < PhysPl; p++) begin
      if (trk_q && tap_act[p] && tap_tag[p*TagW +: TagW] == t_q.tag) t_slot = 1'b1;
    end
  end
  logic [PPlBits-1:0] t_pl;
  assign t_pl = PPlBits'(t_q.plane);
  flint_pkg::maint_status_e st_ok;  // the status its op may end with, besides OK / bad address
  always @(*) begin
    unique case (t_q.op)
      flint_pkg::MaintProgramPage: st_ok = flint_pkg::MaintProgramFail;
      flint_pkg::MaintEraseBlock:  st_ok = flint_pkg::MaintEraseFail;
      default:                     st_ok = flint_pkg::MaintCorrected;
    endcase
  end

  logic fe_badop, fe_bad, fe_read_st;  // the front end's request refused; a read's status so far
  assign fe_badop = tap_req.op != flint_pkg::MaintReadPage &&
                    tap_req.op != flint_pkg::MaintProgramPage &&
                    tap_req.op != flint_pkg::MaintEraseBlock;
  assign fe_bad = 32'(tap_req.plane) >= PhysPl || 32'(tap_req.block) >= Blocks ||
                  (tap_req.op != flint_pkg::MaintEraseBlock && 32'(tap_req.page) >= Pages);
  assign fe_read_st = tap_status == flint_pkg::MaintOk ||
                      tap_status == flint_pkg::MaintCorrected ||
                      tap_status == flint_pkg::MaintUncorrectable;
  logic st_rd_early, st_rd, st_pg;  // read states before the read-out, read states, program
  assign st_rd_early = tap_st == SRdWait || tap_st == SPark || tap_st == SMove;
  assign st_rd = st_rd_early || tap_st == SOut || tap_st == SDrain;
  assign st_pg = tap_st == SPgWait || tap_st == SBeats || tap_st == SPgCmd;

  always @(posedge clk_i) begin
    if (rst_ni) begin
      // The set of outstanding tags is the set held, each held once; no tag past the client's.
      assert (tap_tags[NTags-1:0] == held && tap_tags[(1 << TagW)-1:NTags] == '0);
      assert (slots_distinct);
      if (tap_busy) assert (32'(tap_req.tag) < NTags);
      // The tracked request: in exactly one place until answered, with its payload.
      if (trk_q) begin
        assert (t_bad_q == t_bad_now && t_badop_q == t_badop_now);
        assert (tap_tags[t_q.tag]);
        assert (t_fe != t_slot);
      end
      if (t_fe) assert (tap_req == t_q);
      if (t_slot) begin
        assert (!t_bad_q && !t_badop_q);
        assert (t_q.op != flint_pkg::MaintReadPage);
        assert (tap_act[t_pl]);
        assert (tap_tag[32'(t_pl)*TagW +: TagW] == t_q.tag);
        assert (tap_erase[t_pl] == (t_q.op == flint_pkg::MaintEraseBlock));
        assert (tap_sblk[32'(t_pl)*BlkBits +: BlkBits] == BlkBits'(t_q.block));
        assert (tap_spg[32'(t_pl)*PgW +: PgW] == t_q.page);
      end
      // Its answer echoes it, with a status its op can have.
      if (t_rsp) begin
        assert (rsp.op == t_q.op && rsp.plane == t_q.plane && rsp.block == t_q.block &&
                rsp.page == t_q.page);
`ifdef BREAK_PROP
        assert (rsp.status != flint_pkg::MaintOk);
`endif
        if (t_badop_q) begin
          assert (rsp.status == flint_pkg::MaintBadOp);
        end else if (t_bad_q) begin
          assert (rsp.status == flint_pkg::MaintBadAddress);
        end else begin
          assert (rsp.status == flint_pkg::MaintOk || rsp.status == st_ok ||
                  (t_q.op == flint_pkg::MaintReadPage &&
                   rsp.status == flint_pkg::MaintUncorrectable));
        end
        // A read's lines all before it: Lines in range, none for a bad address.
        assert (32'(t_lines_q) == ((t_q.op == flint_pkg::MaintReadPage && !t_bad_q) ? Lines : 0));
      end
      // Its lines come in order, only while it is in the front end, none past the page.
      if (t_fe && rd_go) assert (32'(rd_line) == 32'(t_lines_q) && 32'(t_lines_q) < Lines);
      if (rd_valid) assert (tap_busy && tap_req.op == flint_pkg::MaintReadPage);
      // --- the induction's strengthening: the front end's state is one of its states, busy
      // exactly when not idle, in a state of its request's op; a held response's source still
      // has its answer; a data-out in flight only while reading out.
      assert (st_rd || st_pg || tap_st == SIdle || tap_st == SErCmd || tap_st == SRsp);
      assert (tap_busy == (tap_st != SIdle));
      if (st_rd) assert (tap_req.op == flint_pkg::MaintReadPage && fe_read_st);
      if (st_rd || st_pg || tap_st == SErCmd) assert (!fe_bad && !fe_badop);
      if (tap_st == SRsp) begin
        assert (fe_badop ? tap_status == flint_pkg::MaintBadOp :
                fe_bad ? tap_status == flint_pkg::MaintBadAddress :
                tap_req.op == flint_pkg::MaintReadPage && fe_read_st);
      end
      if (st_pg) assert (tap_req.op == flint_pkg::MaintProgramPage);
      // A read past its wait owns its plane: no program or erase of the plane's slot meanwhile.
      if (st_rd && tap_st != SRdWait) assert (!tap_act[PPlBits'(tap_req.plane)]);
      if (tap_st == SErCmd) assert (tap_req.op == flint_pkg::MaintEraseBlock);
      if (tap_inflight) assert (tap_st == SOut || tap_st == SDrain);
      if (st_rd_early) assert (tap_out == '0 && tap_rd_line == '0);
      if (tap_hold) begin
        assert (32'(tap_sel) == PhysPl ? tap_st == SRsp :
                32'(tap_sel) < PhysPl && tap_done[tap_sel[PPlBits-1:0]]);
      end
      // The tracked request in the front end: its lines so far against the pointers (lines
      // asked for = lines back + the one in flight), its status when answered.
      if (t_fe) begin
        if (t_badop_q) assert (tap_st == SRsp && tap_status == flint_pkg::MaintBadOp);
        if (t_bad_q && !t_badop_q) begin
          assert (tap_st == SRsp && tap_status == flint_pkg::MaintBadAddress);
        end
        if (t_q.op != flint_pkg::MaintReadPage || t_bad_q || t_badop_q) assert (t_lines_q == '0);
        if (st_rd_early) assert (t_lines_q == '0);
        if (tap_st == SOut) begin
          assert (32'(t_lines_q) + 32'(tap_inflight) == 32'(tap_out));
        end
        if (tap_st == SDrain) assert (32'(t_lines_q) + 32'(tap_inflight) == Lines);
        if ((tap_st == SOut || tap_st == SDrain) && 32'(t_lines_q) < Lines) begin
          assert (t_lines_q[LineBits-1:0] == tap_rd_line);
        end
        if (tap_st == SRsp && t_q.op == flint_pkg::MaintReadPage && !t_bad_q && !t_badop_q) begin
          assert (32'(t_lines_q) == Lines && tap_status != flint_pkg::MaintBadOp &&
                  tap_status != flint_pkg::MaintBadAddress);
        end
        if (tap_st == SRsp && t_q.op != flint_pkg::MaintReadPage) assert (t_bad_q || t_badop_q);
        assert (32'(t_lines_q) <= Lines);
      end
      // Tracked or answered, never both; lines only for a read in range, none once in a slot.
      assert (!(trk_q && ans_q));
      if (trk_q && (t_q.op != flint_pkg::MaintReadPage || t_bad_q || t_badop_q || t_slot)) begin
        assert (t_lines_q == '0);
      end
    end
  end
endmodule
/* verilator lint_on SYNCASYNCNET */
`default_nettype wire
