// NAND maintenance sequencer of one die (docs/nand_seq.md): page-level transactions on the
// die's maintenance port (flint_die_port), each ended by exactly one response carrying the
// request's tag. Requests are taken one at a time by the front end (park, read-out, data-in,
// commands); a program or erase then runs on in its plane's slot, one outstanding a plane, so
// the planes of the die program and erase at once. Its response goes when its plane is idle
// again, so responses come out in the order planes finish, not in request order.
//   ReadPage     park the burst-buffer controller (park_o), Read the page into the plane's page
//                buffer once the controller's page buffers are free (sense_free_i: it may still
//                be serving ACTIVE from the cache buffers), CacheEnd once the sense is done and
//                the controller is parked (parked_i: its cache buffers are free too), then a
//                DataOut a line; each line comes back SEC-DED decoded (by the die's one line
//                decoder on its data-out, which the burst-buffer controller's read path has:
//                dout_data_i, dout_status_i) and leaves with its status on rd_*, in line order:
//                with OutDepth 0 in the cycle it is back (a DataOut goes only while the client
//                holds rd_ready_i, and it holds it until the line is back), else through an
//                OutDepth-line FIFO the client may back-pressure. The park is released with the
//                CacheEnd: from then on the sequencer needs only the plane's cache buffer and the
//                die I/O, and holds them (hold_o: the controller moves nothing into its cache
//                buffers, but may sense its next burst meanwhile) until the last line's data is
//                back from the die.
//                Response status: the worst line (OK, CORRECTED, UNCORRECTABLE).
//                A read waits for its plane's slot to be free before it parks.
//   ProgramPage  wait for the plane to be idle (slot free), take the page's ClPerPage lines on
//                wr_* (raw data; wr_poison_i flips two check bits of every word so the line reads
//                back UNCORRECTABLE, as a copy of an uncorrectable line must), each ECC-encoded
//                into its image (flint_ecc_cl_img) and sent as a data-in beat, then the Program;
//                the plane's slot waits until the plane is idle again and reports its fail bit
//                (MaintProgramFail) while the front end takes the next request.
//   EraseBlock   Erase when the plane is idle (slot free); the slot waits and reports its fail
//                bit (MaintEraseFail).
// A request whose plane, block or page lies past the die is answered MaintBadAddress, one whose
// op is none of the three MaintBadOp; either touches nothing. A failed program or erase is a
// response, never a hang: the die's status is read once the plane is idle again (plane_fail_i is valid then), a cycle after the command at
// the earliest (the plane's busy flag may lag the command by a cycle).
// Assumes: the die port's contract (a Program in cycle t sees the data-in beats of the cycles
// before t; m_ready_i only holds back a DataOut while another is in flight); the program's
// data-in does not need the die I/O (docs/nand_model.md, phantom write path); nothing else
// commands this die's maintenance port, and while parked nothing else uses the plane's buffers.
// Tags: the sequencer only echoes them; a client keeps the tags of its outstanding requests
// distinct (asserted), so every response names its request.
// Latency (cycles, no back-pressure): ReadPage 1 (accept) + park (the Read goes in the first
// cycle the page buffers are free) + tR + xfer + the
// lines' data-outs (ClImageBytes / die I/O rate each, one in flight) + 1 to the
// response; ProgramPage 1 + 1 + ClPerPage beats + 1 + tPROG + 1; EraseBlock 1 + 1 + tERASE + 1.
`default_nettype none
`include "flint_assert.svh"
module flint_maint_seq #(
  parameter int unsigned PhysPl   = flint_cfg_pkg::PhysPlanes,
  parameter int unsigned Blocks   = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages    = flint_cfg_pkg::Pages,
  parameter int unsigned Lines    = flint_cfg_pkg::ClPerPage,
  // decoded lines buffered: 0 = none, the client takes each line as it comes back (flint_top's
  // clients do: their program queue has the room before they ask); >= 2 = a FIFO
  parameter int unsigned OutDepth = 0,
  // do not override
  localparam int unsigned PPlBits  = (PhysPl > 1) ? $clog2(PhysPl) : 1,
  localparam int unsigned BlkBits  = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PgBits   = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned LineBits = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned DataBits = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW    = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW     = flint_pkg::NandCmdWidth,
  localparam int unsigned TagW     = flint_pkg::MaintTagBits,
  localparam int unsigned SrcBits  = $clog2(PhysPl + 1)   // response source: a plane, the front
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // requests
  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  flint_pkg::maint_req_t  req_i,
  // ProgramPage: the page's lines in order, raw data (poison: copy as uncorrectable)
  input  logic                   wr_valid_i,
  output logic                   wr_ready_o,
  input  logic [DataBits-1:0]    wr_data_i,
  input  logic                   wr_poison_i,
  // ReadPage: the page's lines in order, decoded, with their status
  output logic                   rd_valid_o,
  input  logic                   rd_ready_i,
  output logic [DataBits-1:0]    rd_data_o,
  output flint_pkg::status_e     rd_status_o,
  output logic [LineBits-1:0]    rd_line_o,
  output logic                   rd_last_o,
  // responses, one a request
  output logic                   rsp_valid_o,
  input  logic                   rsp_ready_i,
  output flint_pkg::maint_rsp_t  rsp_o,
  // the burst-buffer controller: park while a read needs the plane's page buffer, hold while
  // its cache buffer and the I/O; its page buffers free (sense_free_i), all its buffers free
  output logic                   park_o,
  output logic                   hold_o,
  input  logic                   sense_free_i,
  input  logic                   parked_i,
  // the die's planes
  input  logic [PhysPl-1:0]      plane_idle_i,
  input  logic [PhysPl-1:0]      plane_cache_i,
  input  logic [PhysPl-1:0]      plane_fail_i,
  input  logic                   io_ready_i,
  // the die's maintenance port (flint_die_port), data-in beats, data-out returns
  output logic                   m_valid_o,
  input  logic                   m_ready_i,
  output logic [CmdW-1:0]        m_op_o,
  output logic [PPlBits-1:0]     m_plane_o,
  output logic [BlkBits-1:0]     m_block_o,
  output logic [PgBits-1:0]      m_page_o,
  output logic [LineBits-1:0]    m_line_o,
  output logic                   din_valid_o,
  output logic [LineW-1:0]       din_data_o,
  // a data-out's line back, decoded: the die's line decoder sits on the die's data-out, which
  // the controller and the sequencer share (flint_top: the controller's, flint_bbc fork_data_o)
  input  logic                   dout_valid_i,
  input  logic [DataBits-1:0]    dout_data_i,
  input  logic [flint_pkg::StatusWidth-1:0] dout_status_i  // a flint_pkg::status_e value
);
  localparam logic [CmdW-1:0] OpRead    = CmdW'(flint_pkg::NandCmdRead);
  localparam logic [CmdW-1:0] OpEnd     = CmdW'(flint_pkg::NandCmdCacheEnd);
  localparam logic [CmdW-1:0] OpOut     = CmdW'(flint_pkg::NandCmdDataOut);
  localparam logic [CmdW-1:0] OpProgram = CmdW'(flint_pkg::NandCmdProgram);
  localparam logic [CmdW-1:0] OpErase   = CmdW'(flint_pkg::NandCmdErase);

  typedef enum logic [3:0] {
    StIdle  = 4'd0,
    StPark  = 4'd1,   // ReadPage: park_o; the Read once sense_free_i and the plane idle
    StMove  = 4'd4,   // sensing; CacheEnd once sensed and parked_i
    StOut   = 4'd5,   // a DataOut a line
    StDrain = 4'd6,   // the lines' data coming back; the lines leaving on rd_*
    StPgWait = 4'd7,  // ProgramPage: the plane idle
    StBeats = 4'd8,   // data-in beats
    StPgCmd = 4'd9,   // the Program
    StErCmd = 4'd10,  // EraseBlock: the Erase
    StRsp   = 4'd11,  // the response of a read or a bad address
    StRdWait = 4'd12  // ReadPage: the plane's slot (a program or erase) free, before parking
  } state_e;
  state_e st_q, st_d;

  flint_pkg::maint_req_t req_q;
  flint_pkg::maint_status_e status_q, status_d;
  logic [PPlBits-1:0] pl;
  logic [BlkBits-1:0] blk;
  logic [PgBits-1:0] pg;
  assign pl = PPlBits'(req_q.plane);
  assign blk = BlkBits'(req_q.block);
  assign pg = PgBits'(req_q.page);
  logic [LineBits-1:0] out_q;    // next line to read out / next beat of a program
  // Per plane: a command went to it last cycle (its busy flag may lag); its slot holds a program
  // or erase issued and not yet answered (act), finished with its fail bit read (done).
  logic [PhysPl-1:0] fresh_q, act_q, done_q, fail_q, erase_q;
  logic [PhysPl*TagW-1:0] tag_q;
  logic [PhysPl*BlkBits-1:0] sblk_q;
  logic [PhysPl*flint_pkg::MaintPageBits-1:0] spg_q;  // as requested (an erase's is echoed too)
  logic plane_free;              // the request's plane is idle, not just commanded, slot free
  assign plane_free = plane_idle_i[pl] && !fresh_q[pl] && !act_q[pl];
  logic req_go, rsp_go, m_go, beat_go, last_out, last_beat;
  assign req_go = req_valid_i && req_ready_o;
  assign rsp_go = rsp_valid_o && rsp_ready_i;
  assign m_go = m_valid_o && m_ready_i;
  assign beat_go = wr_valid_i && wr_ready_o;
  assign last_out = 32'(out_q) == Lines - 1;
  assign last_beat = last_out;

  // --- a request against the die: an op it knows, an address on it -------------------------------
  logic bad_op, bad_addr;
  assign bad_op = req_i.op != flint_pkg::MaintReadPage && req_i.op != flint_pkg::MaintProgramPage &&
                  req_i.op != flint_pkg::MaintEraseBlock;
  assign bad_addr = 32'(req_i.plane) >= PhysPl || 32'(req_i.block) >= Blocks ||
                    (req_i.op != flint_pkg::MaintEraseBlock && 32'(req_i.page) >= Pages);

  // --- read-out: decoded lines to the client, straight (OutDepth 0) or through a FIFO -----------
  localparam int unsigned StW = flint_pkg::StatusWidth;
  localparam logic [StW-1:0] StOk   = StW'(flint_pkg::StatusOk);
  localparam logic [StW-1:0] StCorr = StW'(flint_pkg::StatusCorrected);
  localparam logic [StW-1:0] StUe   = StW'(flint_pkg::StatusUncorrectable);
  flint_pkg::status_e dout_st;     // the decoder's status: OK, CORRECTED or UNCORRECTABLE
  always_comb begin
    unique case (dout_status_i)
      StCorr:  dout_st = flint_pkg::StatusCorrected;
      StUe:    dout_st = flint_pkg::StatusUncorrectable;
      default: dout_st = flint_pkg::StatusOk;
    endcase
  end
  logic [LineBits-1:0] rd_line_q;  // line number of the next line out on rd_*
  assign rd_line_o = rd_line_q;
  assign rd_last_o = 32'(rd_line_q) == Lines - 1;
  logic inflight_q;                // a DataOut issued, its data not back yet
  logic credit;                    // room for the line of one more DataOut
  logic line_room;                 // where a returning line goes (asserted: it always has room)
  if (OutDepth == 0) begin : g_pass
    // No buffer: a line leaves on rd_* in the cycle its data is back, decoded on the way. The
    // client asks for it by holding rd_ready_i: a DataOut goes only while rd_ready_i is high,
    // and the client keeps it high until that line is back (ClientReadyForLine). One line in
    // flight; the next DataOut may go in the cycle the previous line comes back.
    assign rd_valid_o = dout_valid_i;
    assign rd_data_o = dout_data_i;
    assign rd_status_o = dout_st;
    assign credit = rd_ready_i && (!inflight_q || dout_valid_i);
    assign line_room = rd_ready_i;
  end else begin : g_fifo
    // OutDepth decoded lines in a FIFO ({status code, data}); a DataOut goes only while the
    // lines buffered plus the one in flight leave room, so the client may back-pressure freely.
    localparam int unsigned CntBits = $clog2(OutDepth + 1);
    logic [1:0] dec_code;  // the line's status as two bits (OK, CORRECTED, UE)
    always_comb begin
      unique case (dout_st)
        flint_pkg::StatusCorrected:     dec_code = 2'd1;
        flint_pkg::StatusUncorrectable: dec_code = 2'd2;
        default:                        dec_code = 2'd0;
      endcase
    end
    logic fifo_in_ready;
    logic [DataBits+1:0] fifo_out;
    logic [CntBits-1:0] fifo_used;
    flint_fifo #(.Width(DataBits + 2), .Depth(OutDepth)) u_lines (
      .clk_i, .rst_ni,
      .in_valid_i (dout_valid_i),
      .in_ready_o (fifo_in_ready),
      .in_data_i  ({dec_code, dout_data_i}),
      .out_valid_o(rd_valid_o),
      .out_ready_i(rd_ready_i),
      .out_data_o (fifo_out),
      .usage_o    (fifo_used)
    );
    assign rd_data_o = fifo_out[DataBits-1:0];
    always_comb begin
      unique case (fifo_out[DataBits +: 2])
        2'd1:    rd_status_o = flint_pkg::StatusCorrected;
        2'd2:    rd_status_o = flint_pkg::StatusUncorrectable;
        default: rd_status_o = flint_pkg::StatusOk;
      endcase
    end
    assign credit = 32'(fifo_used) + 32'(inflight_q) < OutDepth;
    assign line_room = fifo_in_ready;
  end
  logic rd_go;
  assign rd_go = rd_valid_o && rd_ready_i;

  // --- the die's maintenance port: one command kind a state, outputs from the state alone ------
  always_comb begin
    unique case (st_q)
      StPark:  m_valid_o = sense_free_i && plane_free;
      StMove:  m_valid_o = plane_free && io_ready_i && parked_i;
      StOut:   m_valid_o = io_ready_i && plane_cache_i[pl] && credit;
      StPgCmd: m_valid_o = plane_free;
      StErCmd: m_valid_o = plane_free;
      default: m_valid_o = 1'b0;
    endcase
    unique case (st_q)
      StPark:  m_op_o = OpRead;
      StMove:  m_op_o = OpEnd;
      StPgCmd: m_op_o = OpProgram;
      StErCmd: m_op_o = OpErase;
      default: m_op_o = OpOut;
    endcase
  end
  assign m_plane_o = pl;
  assign m_block_o = blk;
  assign m_page_o = pg;
  assign m_line_o = out_q;

  // --- program data-in: each line's image straight to the die ---------------------------------
  flint_ecc_cl_img #(.Words(DataBits / 64)) u_img (
    .data_i  (wr_data_i),
    .poison_i(wr_poison_i),
    .img_o   (din_data_o)
  );
  assign wr_ready_o = st_q == StBeats;
  assign din_valid_o = beat_go;

  // --- the transaction ------------------------------------------------------------------------
  assign req_ready_o = st_q == StIdle;
  logic fe_rsp_go;  // the front end's response (read, bad address or op) taken
  assign park_o = st_q == StPark || st_q == StMove;
  assign hold_o = st_q == StOut || (st_q == StDrain && inflight_q);
  always_comb begin
    st_d = st_q;
    status_d = status_q;
    unique case (st_q)
      StIdle: if (req_go) begin
        status_d = flint_pkg::MaintOk;
        if (bad_op) begin
          status_d = flint_pkg::MaintBadOp;
          st_d = StRsp;
        end else if (bad_addr) begin
          status_d = flint_pkg::MaintBadAddress;
          st_d = StRsp;
        end else begin
          unique case (req_i.op)
            // straight to the park when the plane's slot is free (the address is in range)
            flint_pkg::MaintReadPage:    st_d = act_q[PPlBits'(req_i.plane)] ? StRdWait : StPark;
            flint_pkg::MaintProgramPage: st_d = StPgWait;
            default:                     st_d = StErCmd;  // MaintEraseBlock (bad_op: the rest)
          endcase
        end
      end
      StRdWait: if (!act_q[pl]) st_d = StPark;
      StPark:   if (m_go) st_d = StMove;
      StMove:   if (m_go) st_d = StOut;
      StOut:    if (m_go && last_out) st_d = StDrain;
      StDrain:  if (!inflight_q && !rd_valid_o) st_d = StRsp;
      StPgWait: if (plane_free) st_d = StBeats;
      StBeats:  if (beat_go && last_beat) st_d = StPgCmd;
      StPgCmd:  if (m_go) st_d = StIdle;
      StErCmd:  if (m_go) st_d = StIdle;
      StRsp:    if (fe_rsp_go) st_d = StIdle;
      default:  st_d = StIdle;
    endcase
    // A read's status is its worst line.
    if (dout_valid_i && st_q != StIdle) begin
      if (dout_st == flint_pkg::StatusUncorrectable) begin
        status_d = flint_pkg::MaintUncorrectable;
      end else if (dout_st == flint_pkg::StatusCorrected &&
                   status_q == flint_pkg::MaintOk) begin
        status_d = flint_pkg::MaintCorrected;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      req_q <= '0;
      status_q <= flint_pkg::MaintOk;
      out_q <= '0;
      inflight_q <= 1'b0;
      rd_line_q <= '0;
    end else begin
      st_q <= st_d;
      status_q <= status_d;
      if (req_go) begin
        req_q <= req_i;
        out_q <= '0;
        rd_line_q <= '0;
      end
      if ((st_q == StOut && m_go) || beat_go) out_q <= out_q + 1'b1;
      if (st_q == StOut && m_go) inflight_q <= 1'b1;
      else if (dout_valid_i) inflight_q <= 1'b0;
      if (rd_go) rd_line_q <= rd_line_q + 1'b1;
    end
  end

  // --- the planes' slots: one program or erase a plane, answered when the plane is idle again ---
  logic slot_arm;  // the front end issues its program or erase: the plane's slot takes it
  assign slot_arm = m_go && (st_q == StPgCmd || st_q == StErCmd);
  logic [PhysPl-1:0] finish, answered;
  assign finish = act_q & ~done_q & ~fresh_q & plane_idle_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fresh_q <= '0;
      act_q <= '0;
      done_q <= '0;
      fail_q <= '0;
      erase_q <= '0;
      tag_q <= '0;
      sblk_q <= '0;
      spg_q <= '0;
    end else begin
      for (int unsigned p = 0; p < PhysPl; p++) begin
        fresh_q[p] <= m_go && 32'(m_plane_o) == p;
        if (finish[p]) begin
          done_q[p] <= 1'b1;
          fail_q[p] <= plane_fail_i[p];
        end
        if (answered[p]) begin
          act_q[p] <= 1'b0;
          done_q[p] <= 1'b0;
        end
        if (slot_arm && 32'(pl) == p) begin
          act_q[p] <= 1'b1;
          done_q[p] <= 1'b0;
          erase_q[p] <= st_q == StErCmd;
          tag_q[p*TagW +: TagW] <= req_q.tag;
          sblk_q[p*BlkBits +: BlkBits] <= blk;
          spg_q[p*flint_pkg::MaintPageBits +: flint_pkg::MaintPageBits] <= req_q.page;
        end
      end
    end
  end

  // --- responses: the front end's first, then the lowest finished plane; held once offered -----
  logic hold_q;                   // a response offered and not taken: its source is kept
  logic [SrcBits-1:0] sel_q, sel, pick;
  logic any_rsp;
  always_comb begin
    pick = SrcBits'(PhysPl);
    for (int unsigned p = 0; p < PhysPl; p++) begin
      if (done_q[p] && 32'(pick) == PhysPl) pick = SrcBits'(p);
    end
    if (st_q == StRsp) pick = SrcBits'(PhysPl);
    any_rsp = st_q == StRsp || done_q != '0;
    sel = hold_q ? sel_q : pick;
  end
  assign rsp_valid_o = hold_q || any_rsp;
  assign fe_rsp_go = rsp_go && 32'(sel) == PhysPl;
  always_comb begin
    answered = '0;
    for (int unsigned p = 0; p < PhysPl; p++) answered[p] = rsp_go && 32'(sel) == p;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_q <= 1'b0;
      sel_q <= '0;
    end else begin
      hold_q <= rsp_valid_o && !rsp_ready_i;
      sel_q <= sel;
    end
  end
  logic [PPlBits-1:0] spl;  // the answering plane
  assign spl = PPlBits'(sel);
  always_comb begin
    if (32'(sel) == PhysPl) begin
      rsp_o.tag = req_q.tag;
      rsp_o.op = req_q.op;
      rsp_o.status = status_q;
      rsp_o.plane = req_q.plane;
      rsp_o.block = req_q.block;
      rsp_o.page = req_q.page;
    end else begin
      rsp_o.tag = tag_q[32'(spl)*TagW +: TagW];
      rsp_o.op = erase_q[spl] ? flint_pkg::MaintEraseBlock : flint_pkg::MaintProgramPage;
      rsp_o.status = !fail_q[spl] ? flint_pkg::MaintOk :
                     erase_q[spl] ? flint_pkg::MaintEraseFail : flint_pkg::MaintProgramFail;
      rsp_o.plane = flint_pkg::MaintPlaneBits'(spl);
      rsp_o.block = flint_pkg::MaintBlockBits'(sblk_q[32'(spl)*BlkBits +: BlkBits]);
      rsp_o.page = spg_q[32'(spl)*flint_pkg::MaintPageBits +: flint_pkg::MaintPageBits];
    end
  end

  // --- invariants ------------------------------------------------------------------------------
`ifndef SYNTHESIS
  initial begin
    if (PPlBits > flint_pkg::MaintPlaneBits || BlkBits > flint_pkg::MaintBlockBits ||
        PgBits > flint_pkg::MaintPageBits) begin
      $fatal(1, "%m: the die's geometry does not fit flint_pkg::maint_req_t");
    end
    if (OutDepth == 1) $fatal(1, "%m: OutDepth is 0 (no buffer) or at least 2");
  end
`endif
`ifdef FLINT_CHECKS
  // The front end holds one request from its acceptance until it is answered (read, bad
  // address) or handed to its plane's slot (program, erase).
  logic busy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_q <= 1'b0;
    else if (req_go) busy_q <= 1'b1;
    else if (fe_rsp_go || slot_arm) busy_q <= 1'b0;
  end
  // Tags outstanding: set when a request is taken, cleared by its one response.
  logic [(1 << TagW)-1:0] tags_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tags_q <= '0;
    end else begin
      if (rsp_go) tags_q[rsp_o.tag] <= 1'b0;
      if (req_go) tags_q[req_i.tag] <= 1'b1;
    end
  end
  // Every tag answered once: a response only for an outstanding tag, a tag reused only after its
  // response (the client's part), and every outstanding tag in exactly one place (the front end
  // or a plane's slot), so none is lost or answered twice.
  `FLINT_ASSERT_IMPLY(TagUnique, req_go, !tags_q[req_i.tag])
  `FLINT_ASSERT_IMPLY(ResponseAnswersRequest, rsp_valid_o, tags_q[rsp_o.tag])
  `FLINT_ASSERT(TagsAccounted, $countones(tags_q) == $countones(act_q) + 32'(busy_q))
  `FLINT_ASSERT_IMPLY(OneRequestAtATime, req_go, !busy_q)
  `FLINT_ASSERT_IMPLY(IdleIffNotBusy, st_q == StIdle, !busy_q)
  // At most one program or erase a plane: a slot is armed only when free, answered only once
  // done, and a read never goes to a plane whose slot is busy.
  `FLINT_ASSERT_IMPLY(OneOpAPlane, slot_arm, !act_q[pl])
  `FLINT_ASSERT(DoneOnlyActive, (done_q & ~act_q) == '0)
  `FLINT_ASSERT_IMPLY(AnswerOnlyDone, rsp_valid_o && 32'(sel) != PhysPl, done_q[spl])
  `FLINT_ASSERT_IMPLY(FrontAnswerOnlyRsp, rsp_valid_o && 32'(sel) == PhysPl, st_q == StRsp)
  `FLINT_ASSERT_IMPLY(ReadOnIdleSlot, m_valid_o && m_op_o != OpProgram && m_op_o != OpErase,
                      !act_q[pl])
`endif
  // Payloads hold while offered and not taken (ours, and what we assume of our clients).
  `FLINT_ASSERT_IMPLY(RspStable, $past(rsp_valid_o && !rsp_ready_i),
                      rsp_valid_o && $stable(rsp_o))
  `FLINT_ASSERT_IMPLY(LineStable, $past(rd_valid_o && !rd_ready_i),
                      rd_valid_o && $stable(rd_data_o) && $stable(rd_status_o) &&
                      $stable(rd_line_o))
  `FLINT_ASSERT_IMPLY(ReqStable, $past(req_valid_i && !req_ready_o),
                      req_valid_i && $stable(req_i))
  `FLINT_ASSERT_IMPLY(BeatStable, $past(wr_valid_i && !wr_ready_o),
                      wr_valid_i && $stable(wr_data_i) && $stable(wr_poison_i))
  // No command the die may refuse: a Read only while the controller's page buffers are free,
  // the CacheEnd only while it is parked, data-outs only while it holds its cache buffers as
  // they were at the CacheEnd (flint_top asserts it has no ACTIVE then), array commands only to
  // an idle plane, a data-out only of a moved page with the I/O free.
  `FLINT_ASSERT_IMPLY(ReadOnlySenseFree, m_valid_o && m_op_o == OpRead, sense_free_i && park_o)
  `FLINT_ASSERT_IMPLY(MoveOnlyParked, m_valid_o && m_op_o == OpEnd, parked_i && park_o)
  `FLINT_ASSERT_IMPLY(DataOutOnlyHeld, m_valid_o && m_op_o == OpOut, hold_o)
  `FLINT_ASSERT_IMPLY(ParkedIsSenseFree, parked_i, sense_free_i)
  `FLINT_ASSERT(ParkOrHold, !(park_o && hold_o))
  `FLINT_ASSERT_IMPLY(ArrayCmdIdlePlane, m_valid_o && m_op_o != OpOut, plane_free)
  `FLINT_ASSERT_IMPLY(DataOutReady, m_valid_o && m_op_o == OpOut,
                      io_ready_i && plane_cache_i[pl])
  `FLINT_ASSERT_IMPLY(CmdOnlyWhenBusy, m_valid_o || din_valid_o, busy_q)
  // Lines: never more data back than room, data only when asked for, all lines out before the
  // read's response (a program's or erase's may go while a read's lines flow).
  `FLINT_ASSERT_IMPLY(LineRoom, dout_valid_i, line_room)
  if (OutDepth == 0) begin : g_pass_contract
    // The client's part without a buffer: ready from the DataOut until its line is back.
    `FLINT_ASSERT_IMPLY(ClientReadyForLine, inflight_q, rd_ready_i)
  end
  `FLINT_ASSERT_IMPLY(DataOnlyWhenAsked, dout_valid_i, inflight_q)
  `FLINT_ASSERT_IMPLY(LineStatusKnown, dout_valid_i,
                      dout_status_i == StOk || dout_status_i == StCorr || dout_status_i == StUe)
  `FLINT_ASSERT_IMPLY(LinesBeforeResponse, rsp_valid_o && 32'(sel) == PhysPl,
                      !rd_valid_o && !inflight_q)
  `FLINT_ASSERT_IMPLY(DataInOnlyWhenProgramming, din_valid_o, st_q == StBeats)

  `FLINT_COVER(c_read_parks, st_q == StPark && !parked_i)
  if (OutDepth != 0) begin : g_cov_fifo
    `FLINT_COVER(c_line_held, rd_valid_o && !rd_ready_i)
  end
  `FLINT_COVER(c_line_corrected, rd_go && rd_status_o == flint_pkg::StatusCorrected)
  `FLINT_COVER(c_line_uncorrectable, rd_go && rd_status_o == flint_pkg::StatusUncorrectable)
  `FLINT_COVER(c_program_fail, rsp_go && rsp_o.status == flint_pkg::MaintProgramFail)
  `FLINT_COVER(c_erase_fail, rsp_go && rsp_o.status == flint_pkg::MaintEraseFail)
  `FLINT_COVER(c_planes_overlap, $countones(act_q) > 1)
  `FLINT_COVER(c_all_planes_busy, act_q == '1)
  `FLINT_COVER(c_read_waits_slot, st_q == StRdWait && act_q[pl])
  `FLINT_COVER(c_rsp_held, rsp_valid_o && !rsp_ready_i && done_q != '0)
  `FLINT_COVER(c_bad_address, rsp_go && rsp_o.status == flint_pkg::MaintBadAddress)
  `FLINT_COVER(c_bad_op, rsp_go && rsp_o.status == flint_pkg::MaintBadOp)
endmodule
`default_nettype wire
