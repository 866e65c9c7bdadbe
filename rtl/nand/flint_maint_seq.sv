// NAND maintenance sequencer of one die (docs/nand_seq.md): page-level transactions on the
// die's maintenance port (flint_die_port), one at a time, each ended by exactly one response.
//   ReadPage     park the burst-buffer controller (park_o until parked_i), Read the page into the
//                plane's page buffer, wait the sense, CacheEnd, then a DataOut a line; each line
//                comes back SEC-DED decoded (flint_ecc_cl_dec) with its status on rd_*, in line
//                order. The park is released as soon as the last line's data is back from the
//                die: it is held exactly while the sequencer needs the plane's buffers and the
//                die I/O. Response status: the worst line (OK, CORRECTED, UNCORRECTABLE).
//   ProgramPage  wait for the plane to be idle, take the page's ClPerPage lines on wr_* (raw
//                data; wr_poison_i flips two check bits of every word so the line reads back
//                UNCORRECTABLE, as a copy of an uncorrectable line must), each ECC-encoded into
//                its image (flint_ecc_cl_img) and sent as a data-in beat, then the Program; wait
//                until the plane is idle again and report its fail bit (MaintProgramFail).
//   EraseBlock   Erase when the plane is idle; wait and report its fail bit (MaintEraseFail).
// A request whose plane, block or page lies past the die is answered MaintBadAddress and
// touches nothing. A failed program or erase is a response, never a hang: the die's status is
// read once the plane is idle again (plane_fail_i is valid then), a cycle after the command at
// the earliest (the plane's busy flag may lag the command by a cycle).
// Assumes: the die port's contract (a Program in cycle t sees the data-in beats of the cycles
// before t; m_ready_i only holds back a DataOut while another is in flight); the program's
// data-in does not need the die I/O (docs/nand_model.md, phantom write path); nothing else
// commands this die's maintenance port, and while parked nothing else uses the plane's buffers.
// Latency (cycles, no back-pressure): ReadPage 1 (accept) + park + 1 + tR + 1 + xfer + the
// lines' data-outs (ClImageBytes / die I/O rate each, OutDepth lines in flight) + 1 to the
// response; ProgramPage 1 + 1 + ClPerPage beats + 1 + tPROG + 1; EraseBlock 1 + 1 + tERASE + 1.
`default_nettype none
`include "flint_assert.svh"
module flint_maint_seq #(
  parameter int unsigned PhysPl   = flint_cfg_pkg::PhysPlanes,
  parameter int unsigned Blocks   = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages    = flint_cfg_pkg::Pages,
  parameter int unsigned Lines    = flint_cfg_pkg::ClPerPage,
  parameter int unsigned OutDepth = 2,  // decoded lines buffered: data-outs in flight + held
  // do not override
  localparam int unsigned PPlBits  = (PhysPl > 1) ? $clog2(PhysPl) : 1,
  localparam int unsigned BlkBits  = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PgBits   = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned LineBits = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned DataBits = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW    = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW     = flint_pkg::NandCmdWidth
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
  // the burst-buffer controller: park while a read needs the plane's buffers and the I/O
  output logic                   park_o,
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
  input  logic                   dout_valid_i,
  input  logic [LineW-1:0]       dout_data_i
);
  localparam int unsigned Words = DataBits / 64;
  localparam int unsigned CntBits = $clog2(OutDepth + 1);
  localparam logic [CmdW-1:0] OpRead    = CmdW'(flint_pkg::NandCmdRead);
  localparam logic [CmdW-1:0] OpEnd     = CmdW'(flint_pkg::NandCmdCacheEnd);
  localparam logic [CmdW-1:0] OpOut     = CmdW'(flint_pkg::NandCmdDataOut);
  localparam logic [CmdW-1:0] OpProgram = CmdW'(flint_pkg::NandCmdProgram);
  localparam logic [CmdW-1:0] OpErase   = CmdW'(flint_pkg::NandCmdErase);

  typedef enum logic [3:0] {
    StIdle  = 4'd0,
    StPark  = 4'd1,   // ReadPage: park_o, waiting for parked_i
    StRead  = 4'd2,   // Read of the page
    StSense = 4'd3,   // sensing
    StMove  = 4'd4,   // CacheEnd
    StOut   = 4'd5,   // a DataOut a line
    StDrain = 4'd6,   // the lines' data coming back; the lines leaving on rd_*
    StPgWait = 4'd7,  // ProgramPage: the plane idle
    StBeats = 4'd8,   // data-in beats
    StPgCmd = 4'd9,   // the Program
    StErCmd = 4'd10,  // EraseBlock: the Erase
    StBusy  = 4'd11,  // program or erase running: wait for the plane, read its fail bit
    StRsp   = 4'd12   // the response
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
  logic fresh_q;                 // a command went last cycle: the plane's busy flag may lag
  logic plane_free;              // the request's plane is idle, and not just commanded
  assign plane_free = plane_idle_i[pl] && !fresh_q;
  logic req_go, rsp_go, m_go, beat_go, last_out, last_beat;
  assign req_go = req_valid_i && req_ready_o;
  assign rsp_go = rsp_valid_o && rsp_ready_i;
  assign m_go = m_valid_o && m_ready_i;
  assign beat_go = wr_valid_i && wr_ready_o;
  assign last_out = 32'(out_q) == Lines - 1;
  assign last_beat = last_out;

  // --- a request's address against the die -------------------------------------------------------
  logic bad_addr;
  assign bad_addr = 32'(req_i.plane) >= PhysPl || 32'(req_i.block) >= Blocks ||
                    (req_i.op != flint_pkg::MaintEraseBlock && 32'(req_i.page) >= Pages);

  // --- read-out: decoded lines into a small FIFO, credits for the data-outs in flight ----------
  logic [DataBits-1:0] dec_in, dec_out;
  logic [Words*8-1:0] dec_chk;
  flint_pkg::status_e dec_st;
  logic [Words-1:0] unused_wc, unused_wu;
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      dec_in[w*64 +: 64] = dout_data_i[w*72 +: 64];
      dec_chk[w*8 +: 8] = dout_data_i[w*72+64 +: 8];
    end
  end
  flint_ecc_cl_dec #(.Words(Words)) u_dec (
    .data_i(dec_in), .check_i(dec_chk), .data_o(dec_out), .status_o(dec_st),
    .word_corrected_o(unused_wc), .word_uncorrectable_o(unused_wu));
  logic [1:0] dec_code;  // the line's status as two bits in the FIFO (OK, CORRECTED, UE)
  always_comb begin
    unique case (dec_st)
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
    .in_data_i  ({dec_code, dec_out}),
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
  logic [LineBits-1:0] rd_line_q;  // line number of the FIFO's head
  assign rd_line_o = rd_line_q;
  assign rd_last_o = 32'(rd_line_q) == Lines - 1;
  logic inflight_q;                // a DataOut issued, its data not back yet
  logic credit;                    // room for one more line: buffered + in flight < OutDepth
  assign credit = 32'(fifo_used) + 32'(inflight_q) < OutDepth;
  logic rd_go;
  assign rd_go = rd_valid_o && rd_ready_i;

  // --- the die's maintenance port: one command kind a state, outputs from the state alone ------
  always_comb begin
    unique case (st_q)
      StRead:  m_valid_o = plane_free;
      StMove:  m_valid_o = plane_free && io_ready_i;
      StOut:   m_valid_o = io_ready_i && plane_cache_i[pl] && credit;
      StPgCmd: m_valid_o = plane_free;
      StErCmd: m_valid_o = plane_free;
      default: m_valid_o = 1'b0;
    endcase
    unique case (st_q)
      StRead:  m_op_o = OpRead;
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
  flint_ecc_cl_img #(.Words(Words)) u_img (
    .data_i  (wr_data_i),
    .poison_i(wr_poison_i),
    .img_o   (din_data_o)
  );
  assign wr_ready_o = st_q == StBeats;
  assign din_valid_o = beat_go;

  // --- the transaction ------------------------------------------------------------------------
  assign req_ready_o = st_q == StIdle;
  assign park_o = st_q == StPark || st_q == StRead || st_q == StSense || st_q == StMove ||
                  st_q == StOut || (st_q == StDrain && inflight_q);
  always_comb begin
    st_d = st_q;
    status_d = status_q;
    unique case (st_q)
      StIdle: if (req_go) begin
        status_d = flint_pkg::MaintOk;
        if (bad_addr) begin
          status_d = flint_pkg::MaintBadAddress;
          st_d = StRsp;
        end else begin
          unique case (req_i.op)
            flint_pkg::MaintReadPage:    st_d = StPark;
            flint_pkg::MaintProgramPage: st_d = StPgWait;
            default:                     st_d = StErCmd;
          endcase
        end
      end
      StPark:   if (parked_i) st_d = StRead;
      StRead:   if (m_go) st_d = StSense;
      StSense:  if (plane_free) st_d = StMove;
      StMove:   if (m_go) st_d = StOut;
      StOut:    if (m_go && last_out) st_d = StDrain;
      StDrain:  if (!inflight_q && !rd_valid_o) st_d = StRsp;
      StPgWait: if (plane_free) st_d = StBeats;
      StBeats:  if (beat_go && last_beat) st_d = StPgCmd;
      StPgCmd:  if (m_go) st_d = StBusy;
      StErCmd:  if (m_go) st_d = StBusy;
      StBusy:   if (plane_free) begin
        st_d = StRsp;
        if (plane_fail_i[pl]) begin
          status_d = (req_q.op == flint_pkg::MaintEraseBlock) ? flint_pkg::MaintEraseFail :
                                                                 flint_pkg::MaintProgramFail;
        end
      end
      StRsp:    if (rsp_go) st_d = StIdle;
      default:  st_d = StIdle;
    endcase
    // A read's status is its worst line.
    if (dout_valid_i && st_q != StIdle) begin
      if (dec_st == flint_pkg::StatusUncorrectable) status_d = flint_pkg::MaintUncorrectable;
      else if (dec_st == flint_pkg::StatusCorrected &&
               status_q == flint_pkg::MaintOk) status_d = flint_pkg::MaintCorrected;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      req_q <= '0;
      status_q <= flint_pkg::MaintOk;
      out_q <= '0;
      fresh_q <= 1'b0;
      inflight_q <= 1'b0;
      rd_line_q <= '0;
    end else begin
      st_q <= st_d;
      status_q <= status_d;
      fresh_q <= m_go;
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

  assign rsp_valid_o = st_q == StRsp;
  always_comb begin
    rsp_o.op = req_q.op;
    rsp_o.status = status_q;
    rsp_o.plane = req_q.plane;
    rsp_o.block = req_q.block;
    rsp_o.page = req_q.page;
  end

  // --- invariants ------------------------------------------------------------------------------
`ifndef SYNTHESIS
  initial begin
    if (PPlBits > flint_pkg::MaintPlaneBits || BlkBits > flint_pkg::MaintBlockBits ||
        PgBits > flint_pkg::MaintPageBits) begin
      $fatal(1, "%m: the die's geometry does not fit flint_pkg::maint_req_t");
    end
    if (OutDepth < 2) $fatal(1, "%m: OutDepth must be at least 2");
  end
`endif
  logic busy_q;  // a request accepted and not yet answered: one response a request
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_q <= 1'b0;
    else if (req_go) busy_q <= 1'b1;
    else if (rsp_go) busy_q <= 1'b0;
  end
  `FLINT_ASSERT_IMPLY(OneRequestAtATime, req_go, !busy_q)
  `FLINT_ASSERT_IMPLY(ResponseAnswersRequest, rsp_valid_o, busy_q)
  `FLINT_ASSERT_IMPLY(IdleIffNotBusy, st_q == StIdle, !busy_q)
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
  // No command the die may refuse: reads of the buffers only while parked, array commands only
  // to an idle plane, a data-out only of a moved page with the I/O free.
  `FLINT_ASSERT_IMPLY(ReadOnlyParked, m_valid_o && m_op_o != OpProgram && m_op_o != OpErase,
                      parked_i && park_o)
  `FLINT_ASSERT_IMPLY(ArrayCmdIdlePlane, m_valid_o && m_op_o != OpOut, plane_free)
  `FLINT_ASSERT_IMPLY(DataOutReady, m_valid_o && m_op_o == OpOut,
                      io_ready_i && plane_cache_i[pl])
  `FLINT_ASSERT_IMPLY(CmdOnlyWhenBusy, m_valid_o || din_valid_o, busy_q)
  // Lines: never more data back than room, data only when asked for, all lines out before the
  // response.
  `FLINT_ASSERT_IMPLY(LineRoom, dout_valid_i, fifo_in_ready)
  `FLINT_ASSERT_IMPLY(DataOnlyWhenAsked, dout_valid_i, inflight_q)
  `FLINT_ASSERT_IMPLY(LinesBeforeResponse, rsp_valid_o, !rd_valid_o && !inflight_q)
  `FLINT_ASSERT_IMPLY(DataInOnlyWhenProgramming, din_valid_o, st_q == StBeats)

  `FLINT_COVER(c_read_parks, st_q == StPark && !parked_i)
  `FLINT_COVER(c_line_held, rd_valid_o && !rd_ready_i)
  `FLINT_COVER(c_line_corrected, rd_go && rd_status_o == flint_pkg::StatusCorrected)
  `FLINT_COVER(c_line_uncorrectable, rd_go && rd_status_o == flint_pkg::StatusUncorrectable)
  `FLINT_COVER(c_program_fail, rsp_go && rsp_o.status == flint_pkg::MaintProgramFail)
  `FLINT_COVER(c_erase_fail, rsp_go && rsp_o.status == flint_pkg::MaintEraseFail)
  `FLINT_COVER(c_bad_address, rsp_go && rsp_o.status == flint_pkg::MaintBadAddress)
endmodule
`default_nettype wire
