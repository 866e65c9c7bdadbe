// In-place refresh of one die: the paper's baselines (section 6.2; docs/refresh.md, "In-place
// baselines in RTL"). A block whose read count reaches its trip point (a due event of the read
// counters) is refreshed where it is: park the burst-buffer controller, read the block's pages
// out through SEC-DED into a block buffer, erase the block, program the pages back (ECC-encoded
// again, so the disturb errors are gone), reset its read count, release the park. The plane,
// and with it every burst, waits for the whole of it: Pages x (tR + lines) + tERASE +
// Pages x tPROG. Due blocks wait in a pending bitmap and are refreshed one at a time.
// Every NAND operation is a transaction on the die's maintenance sequencer (flint_maint_seq,
// reached through flint_maint_arb; docs/nand_seq.md): ReadPage x Pages (the lines come back
// decoded, an uncorrectable one with its status, kept as poison), EraseBlock, ProgramPage x
// Pages (the sequencer encodes the lines again, a poisoned one so it stays uncorrectable). One
// transaction at a time; this die holds its own park around the whole block (the block must not
// be served meanwhile), the sequencer's park of each read sits inside it. A failed erase or
// program (its answer's status) halts the die with its error code, in the answer's cycle: nothing
// more goes to the sequencer or the counters.
//
// The two baselines differ only in when blocks come due, which the read counters decide
// (flint_top sets their StaggerBits by the mode): aligned trip points (in-place burst: every
// block of a stripe comes due together) or trip points spread over half the limit (in-place
// distributed). Nothing is relocated, so the relocation table and the stripe table are not used.
//
// The block buffer holds a whole block (Pages x lines, each {poison, data}): a baseline's cost
// in silicon, which FLINT does not pay (its program queue holds ProgqPages pages).
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_inplace_die #(
  // do not override
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages     = flint_cfg_pkg::Pages,
  localparam int unsigned Lines     = flint_cfg_pkg::ClPerPage,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  enable_i,      // the model is loaded and served
  input  logic                  parked_i,
  output logic                  park_o,
  // this die's maintenance sequencer (through its flint_maint_arb): requests, program lines,
  // read lines, answers
  output logic                  mreq_valid_o,
  input  logic                  mreq_ready_i,
  output flint_pkg::maint_req_t mreq_o,
  output logic                  mwr_valid_o,
  input  logic                  mwr_ready_i,
  output logic [DataBits-1:0]   mwr_data_o,
  output logic                  mwr_poison_o,
  input  logic                  mrd_valid_i,
  output logic                  mrd_ready_o,
  input  logic [DataBits-1:0]   mrd_data_i,
  input  flint_pkg::status_e    mrd_status_i,
  input  logic [LineBits-1:0]   mrd_line_i,
  input  logic                  mrd_last_i,
  input  logic                  mrsp_valid_i,
  output logic                  mrsp_ready_o,
  input  flint_pkg::maint_rsp_t mrsp_i,
  // read-counter reset of the refreshed block
  output logic                  cc_valid_o,
  input  logic                  cc_ready_i,
  output flint_cfg_pkg::pblk_t  cc_o,
  input  logic                  cc_rsp_valid_i,
  // senses for the read counters: none (see below); the port matches flint_refresh_die's
  output logic                  sn_valid_o,
  output flint_cfg_pkg::pblk_t  sn_o,
  // read-counter trip events of this die
  input  logic                  evt_valid_i,
  input  flint_cfg_pkg::evt_t   evt_i,
  // status
  output logic [PPlBits-1:0]    plane_o,       // plane of the block being refreshed
  output logic [3:0]            phase_o,       // a state_e value
  output logic [31:0]           refreshed_o,   // blocks refreshed
  output logic [31:0]           read_out_o,    // pages read out
  output logic [31:0]           programmed_o,  // pages programmed back
  output logic [31:0]           erased_o,      // blocks erased
  output logic [31:0]           poisoned_o,    // lines that could not be corrected
  output logic [31:0]           due_o,         // due events seen
  output logic [31:0]           limit_o,       // limit events seen
  output logic [31:0]           pending_o,     // blocks due and not yet refreshed
  output logic                  alarm_o,       // a block reached the disturb limit
  output logic                  err_o,
  output logic [2:0]            err_code_o     // a flint_pkg::refresh_err_e value
);
  localparam int unsigned BufAddr = $clog2(Pages * Lines);

  typedef enum logic [3:0] {
    IpOff   = 4'd0,
    IpScan  = 4'd1,   // looking for a pending block
    IpPark  = 4'd2,   // waiting for the controller to park
    IpRdReq = 4'd3,   // ReadPage of page pg_q
    IpRdOut = 4'd4,   // its lines into the buffer, then its answer
    IpErReq = 4'd5,   // EraseBlock
    IpErRsp = 4'd6,   // its answer
    IpPgReq = 4'd7,   // ProgramPage of page pg_q
    IpBeats = 4'd8,   // its lines from the buffer
    IpPgRsp = 4'd9,   // its answer
    IpCount = 4'd10,  // read-count reset
    IpHalt  = 4'd11
  } state_e;
  state_e st_q, st_d;

  localparam int unsigned PendW = PhysPl * Blocks;
  logic [PendW-1:0] pend_q;            // due blocks, bit plane * Blocks + block
  logic [PPlBits-1:0] scan_pl_q;       // the scan's place
  logic [BlockBits-1:0] scan_blk_q;
  logic scan_hit;
  assign scan_hit = pend_q[{scan_pl_q, scan_blk_q}];
  logic [PPlBits-1:0] pl_q;
  logic [BlockBits-1:0] blk_q;
  logic [PageBits-1:0] pg_q;
  logic [LineBits-1:0] ln_q;           // next beat of a program
  logic cc_wait_q;
  logic [31:0] ref_q, rd_q, prog_q, er_q, pois_q, due_q, lim_q, pend_cnt_q;
  logic alarm_q, err_q;
  flint_pkg::refresh_err_e code_q;
  logic last_page;
  assign last_page = 32'(pg_q) == Pages - 1;

  // --- the sequencer's handshakes ------------------------------------------------------------
  logic req_go, wr_go, rd_go, rsp_go, last_beat;
  assign req_go = mreq_valid_o && mreq_ready_i;
  assign wr_go = mwr_valid_o && mwr_ready_i;
  assign rd_go = mrd_valid_i && mrd_ready_o;
  assign rsp_go = mrsp_valid_i && mrsp_ready_o;
  assign last_beat = wr_go && 32'(ln_q) == Lines - 1;
  assign mreq_valid_o = st_q == IpRdReq || st_q == IpErReq || st_q == IpPgReq;
  always_comb begin
    mreq_o = '0;
    unique case (st_q)
      IpErReq: mreq_o.op = flint_pkg::MaintEraseBlock;
      IpPgReq: mreq_o.op = flint_pkg::MaintProgramPage;
      default: mreq_o.op = flint_pkg::MaintReadPage;
    endcase
    mreq_o.plane = flint_pkg::MaintPlaneBits'(pl_q);
    mreq_o.block = flint_pkg::MaintBlockBits'(blk_q);
    mreq_o.page = flint_pkg::MaintPageBits'(pg_q);
    mreq_o.tag = '0;  // one transaction at a time: every answer is the one awaited
  end
  assign mrd_ready_o = st_q == IpRdOut;
  assign mrsp_ready_o = st_q == IpRdOut || st_q == IpErRsp || st_q == IpPgRsp;
  logic rsp_fail;  // an answer that is not a success (a read's corrected lines are one)
  assign rsp_fail = mrsp_i.status != flint_pkg::MaintOk &&
                    mrsp_i.status != flint_pkg::MaintCorrected &&
                    mrsp_i.status != flint_pkg::MaintUncorrectable;

  // --- block buffer: {poison, data} a line, a page after the other ---------------------------
  // Read lines go in at {page, line}; the program's beats come out of it, the address of the
  // beat after the one offered set a cycle ahead (the buffer's read takes a cycle), so the beat
  // offered is always the current line's and holds while the sequencer waits.
  logic buf_we;
  logic [BufAddr-1:0] buf_wa, buf_ra;
  logic [DataBits:0] buf_wd, buf_rd;
  flint_sram #(.Width(DataBits + 1), .Depth(Pages * Lines)) u_buf (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(buf_ra), .rd_data_o(buf_rd),
    .wr_en_i(buf_we), .wr_addr_i(buf_wa), .wr_data_i(buf_wd));
  logic line_bad;
  assign line_bad = mrd_status_i == flint_pkg::StatusUncorrectable;
  assign buf_we = rd_go;
  assign buf_wa = BufAddr'({pg_q, mrd_line_i});
  assign buf_wd = {line_bad, mrd_data_i};
  logic [LineBits-1:0] ln_next;
  assign ln_next = wr_go ? ln_q + 1'b1 : ln_q;
  assign buf_ra = BufAddr'({pg_q, ln_next});
  assign mwr_valid_o = st_q == IpBeats;
  assign mwr_data_o = buf_rd[DataBits-1:0];
  assign mwr_poison_o = buf_rd[DataBits];

  // --- the refresh of one block --------------------------------------------------------------
  always_comb begin
    st_d = st_q;
    unique case (st_q)
      IpOff:   if (enable_i) st_d = IpScan;
      IpScan:  if (scan_hit) st_d = IpPark;
      IpPark:  if (parked_i) st_d = IpRdReq;
      IpRdReq: if (req_go) st_d = IpRdOut;
      IpRdOut: if (rsp_go) st_d = last_page ? IpErReq : IpRdReq;
      IpErReq: if (req_go) st_d = IpErRsp;
      IpErRsp: if (rsp_go) st_d = IpPgReq;
      IpPgReq: if (req_go) st_d = IpBeats;
      IpBeats: if (last_beat) st_d = IpPgRsp;
      IpPgRsp: if (rsp_go) st_d = last_page ? IpCount : IpPgReq;
      IpCount: if (cc_rsp_valid_i) st_d = IpScan;
      default: ;
    endcase
    // A failed answer halts at once: the state after it would offer the next request (or the count
    // reset) in the cycle before err_q is seen.
    if (err_q || (rsp_go && rsp_fail)) st_d = IpHalt;
    if (!enable_i) st_d = IpOff;
  end
  assign cc_valid_o = st_q == IpCount && !cc_wait_q;
  assign cc_o.plane = pl_q;
  assign cc_o.block = blk_q;
  // From the first read-out to the count reset: nothing of this block may be served.
  assign park_o = st_q != IpOff && st_q != IpScan && st_q != IpHalt;
  // The read-out senses are not counted: the block is erased next and its count reset, and
  // counting them would carry a block due at its trip point past the limit (a false alarm).
  assign sn_valid_o = 1'b0;
  assign sn_o.plane = pl_q;
  assign sn_o.block = blk_q;

  logic pend_add, pend_done;
  assign pend_add = evt_valid_i && !evt_i.limit && !pend_q[{evt_i.plane, evt_i.block}];
  assign pend_done = st_q == IpCount && cc_rsp_valid_i;
  // Set and clear by a shifted one-hot mask: a dynamic bit write into the bitmap is one case
  // an index for Yosys (8k at paper, 20 s of elaboration); a shift is one cell. Built bit by bit
  // because Verilator refuses constants of more than 8k bits.
  logic [PendW-1:0] pend_one, pend_d;
  always_comb begin
    for (int unsigned i = 0; i < PendW; i++) pend_one[i] = i == 0;
  end
  // The bit clears when the block's count is reset: a due event of the same block cannot come
  // before that (one due event an erase cycle).
  always_comb begin
    pend_d = pend_q;
    if (evt_valid_i && !evt_i.limit) pend_d = pend_d | (pend_one << {evt_i.plane, evt_i.block});
    if (pend_done) pend_d = pend_d & ~(pend_one << {scan_pl_q, scan_blk_q});
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= IpOff;
      // bit by bit: a constant of more than 8k bits is one Verilator refuses at paper
      for (int unsigned i = 0; i < PhysPl * Blocks; i++) pend_q[i] <= 1'b0;
      scan_pl_q <= '0;
      scan_blk_q <= '0;
      pl_q <= '0;
      blk_q <= '0;
      pg_q <= '0;
      ln_q <= '0;
      cc_wait_q <= 1'b0;
      ref_q <= '0;
      rd_q <= '0;
      prog_q <= '0;
      er_q <= '0;
      pois_q <= '0;
      due_q <= '0;
      lim_q <= '0;
      pend_cnt_q <= '0;
      alarm_q <= 1'b0;
      err_q <= 1'b0;
      code_q <= flint_pkg::RefreshErrNone;
    end else begin
      st_q <= st_d;
      if (cc_valid_o && cc_ready_i) cc_wait_q <= 1'b1;
      else if (cc_rsp_valid_i) cc_wait_q <= 1'b0;
      // Due blocks wait in the bitmap (a block comes due once an erase cycle).
      if (evt_valid_i) begin
        if (evt_i.limit) begin
          alarm_q <= 1'b1;
          lim_q <= lim_q + 1'b1;
        end else begin
          due_q <= due_q + 1'b1;
        end
      end
      if (st_q == IpScan) begin
        if (scan_hit) begin
          pl_q <= scan_pl_q;
          blk_q <= scan_blk_q;
          pg_q <= '0;
          ln_q <= '0;
        end else begin
          scan_blk_q <= scan_blk_q + 1'b1;  // Blocks is a power of two
          if (32'(scan_blk_q) == Blocks - 1) begin
            scan_pl_q <= (32'(scan_pl_q) == PhysPl - 1) ? '0 : scan_pl_q + 1'b1;
          end
        end
      end
      pend_q <= pend_d;
      if (pend_done) ref_q <= ref_q + 1'b1;
      pend_cnt_q <= pend_cnt_q + 32'(pend_add) - 32'(pend_done);
      // Read-out: a page a ReadPage; an uncorrectable line is kept with its poison bit.
      if (st_q == IpRdReq && req_go) rd_q <= rd_q + 1'b1;
      if (rd_go && line_bad) pois_q <= pois_q + 1'b1;
      if (st_q == IpRdOut && rsp_go) pg_q <= last_page ? '0 : pg_q + 1'b1;
      // Erase.
      if (st_q == IpErReq && req_go) er_q <= er_q + 1'b1;
      // Program back: the beats of a page, then the next page.
      if (st_q == IpPgReq) ln_q <= '0;
      if (wr_go) ln_q <= ln_q + 1'b1;
      if (st_q == IpPgRsp && rsp_go) begin
        prog_q <= prog_q + 1'b1;
        if (!last_page) pg_q <= pg_q + 1'b1;
      end
      // A failed answer halts the die: an erase's, a program's, or a read the sequencer
      // refused (RefreshErrReloc, as in flint_refresh_die: an address it refused).
      if (rsp_go && rsp_fail) begin
        err_q <= 1'b1;
        code_q <= (st_q == IpErRsp) ? flint_pkg::RefreshErrErase :
                  (st_q == IpPgRsp) ? flint_pkg::RefreshErrProgram : flint_pkg::RefreshErrReloc;
      end
    end
  end

  assign plane_o = pl_q;
  assign phase_o = st_q;
  assign refreshed_o = ref_q;
  assign read_out_o = rd_q;
  assign programmed_o = prog_q;
  assign erased_o = er_q;
  assign poisoned_o = pois_q;
  assign due_o = due_q;
  assign limit_o = lim_q;
  assign pending_o = pend_cnt_q;
  assign alarm_o = alarm_q;
  assign err_o = err_q;
  assign err_code_o = code_q;
  logic unused_rd;
  assign unused_rd = ^{mrd_last_i, mrsp_i.tag, mrsp_i.op, mrsp_i.plane, mrsp_i.block,
                       mrsp_i.page};

  // --- invariants ------------------------------------------------------------------------------
  // Every NAND operation of a refresh runs parked: no burst is served beside it.
  `FLINT_ASSERT_IMPLY(RefreshOnlyParked, mreq_valid_o || mwr_valid_o, parked_i && park_o)
  // One transaction at a time, answered for the block being refreshed, in order: its page's
  // lines while a read is out, the program back only after the erase.
  `FLINT_ASSERT_IMPLY(AnswerOfOurs, mrsp_valid_i,
                      st_q == IpRdOut || st_q == IpErRsp || st_q == IpPgRsp)
  `FLINT_ASSERT_IMPLY(AnswerNamesBlock, mrsp_valid_i,
                      mrsp_i.plane == flint_pkg::MaintPlaneBits'(pl_q) &&
                      mrsp_i.block == flint_pkg::MaintBlockBits'(blk_q))
  `FLINT_ASSERT_IMPLY(LinesOfRead, mrd_valid_i, st_q == IpRdOut)
  `FLINT_ASSERT_IMPLY(ProgramAfterErase, mreq_valid_o && mreq_o.op == flint_pkg::MaintProgramPage,
                      er_q != '0)
  `FLINT_ASSERT(PendingCount, 32'(pend_cnt_q) <= PhysPl * Blocks)
  // Halted: nothing more to the sequencer or the counters.
  `FLINT_ASSERT_IMPLY(NothingAfterHalt, err_q, !mreq_valid_o && !mwr_valid_o && !cc_valid_o)

  // Functional cover points: each phase of an in-place refresh, a queue of due blocks, a line
  // that could not be corrected, the limit alarm, the halt.
  `FLINT_COVER(c_ip_park, st_q == IpPark)
  `FLINT_COVER(c_ip_read_out, rd_go)
  `FLINT_COVER(c_ip_erase, st_q == IpErRsp)
  `FLINT_COVER(c_ip_program, st_q == IpPgReq && req_go)
  `FLINT_COVER(c_ip_count, st_q == IpCount && cc_rsp_valid_i)
  `FLINT_COVER(c_ip_pending_many, pend_cnt_q > 32'd1)
  `FLINT_COVER(c_ip_poisoned_line, rd_go && line_bad)
  `FLINT_COVER(c_ip_limit_event, evt_valid_i && evt_i.limit)
  `FLINT_COVER(c_ip_halt, st_q == IpHalt)
endmodule
`default_nettype wire
