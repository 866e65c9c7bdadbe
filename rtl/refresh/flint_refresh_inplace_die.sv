// In-place refresh of one die: the paper's baselines (section 6.2; docs/refresh.md, "In-place
// baselines in RTL"). A block whose read count reaches its trip point (a due event of the read
// counters) is refreshed where it is: park the burst-buffer controller, read the block's pages
// out through SEC-DED into a block buffer, erase the block, program the pages back (ECC-encoded
// again, so the disturb errors are gone), reset its read count, release the park. The plane,
// and with it every burst, waits for the whole of it: Pages x (tR + lines) + tERASE +
// Pages x tPROG. Due blocks wait in a pending bitmap and are refreshed one at a time.
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
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned CmdW      = flint_pkg::NandCmdWidth
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  enable_i,      // the model is loaded and served
  input  logic                  parked_i,
  output logic                  park_o,
  // this die's planes
  input  logic [PhysPl-1:0]     plane_idle_i,
  input  logic [PhysPl-1:0]     plane_cache_i,
  input  logic [PhysPl-1:0]     plane_fail_i,
  input  logic                  io_ready_i,
  // maintenance commands to the die, data-in beats, data-out returns
  output logic                  m_valid_o,
  input  logic                  m_ready_i,
  output logic [CmdW-1:0]       m_op_o,
  output logic [PPlBits-1:0]    m_plane_o,
  output logic [BlockBits-1:0]  m_block_o,
  output logic [PageBits-1:0]   m_page_o,
  output logic [LineBits-1:0]   m_line_o,
  output logic                  din_valid_o,
  output logic [LineW-1:0]      din_data_o,
  input  logic                  dout_valid_i,
  input  logic [LineW-1:0]      dout_data_i,
  // read-counter reset of the refreshed block
  output logic                  cc_valid_o,
  input  logic                  cc_ready_i,
  output logic [PPlBits-1:0]    cc_plane_o,
  output logic [BlockBits-1:0]  cc_block_o,
  input  logic                  cc_rsp_valid_i,
  // senses for the read counters: none (see below); the port matches flint_refresh_die's
  output logic                  sn_valid_o,
  output logic [PPlBits-1:0]    sn_plane_o,
  output logic [BlockBits-1:0]  sn_block_o,
  // read-counter trip events of this die
  input  logic                  evt_valid_i,
  input  logic [PPlBits-1:0]    evt_plane_i,
  input  logic [BlockBits-1:0]  evt_block_i,
  input  logic                  evt_limit_i,
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
  output logic [2:0]            err_code_o     // 2 program, 3 erase
);
  localparam int unsigned BufAddr = $clog2(Pages * Lines);
  localparam int unsigned Words  = DataBits / 64;
  localparam logic [CmdW-1:0] OpRead    = CmdW'(flint_pkg::NandCmdRead);
  localparam logic [CmdW-1:0] OpEnd     = CmdW'(flint_pkg::NandCmdCacheEnd);
  localparam logic [CmdW-1:0] OpOut     = CmdW'(flint_pkg::NandCmdDataOut);
  localparam logic [CmdW-1:0] OpProgram = CmdW'(flint_pkg::NandCmdProgram);
  localparam logic [CmdW-1:0] OpErase   = CmdW'(flint_pkg::NandCmdErase);

  typedef enum logic [3:0] {
    IpOff    = 4'd0,
    IpScan   = 4'd1,   // looking for a pending block
    IpPark   = 4'd2,   // waiting for the controller to park
    IpRead   = 4'd3,   // Read of page pg_q
    IpSense  = 4'd4,
    IpMove   = 4'd5,   // CacheEnd
    IpOut    = 4'd6,   // DataOut of line ln_q
    IpData   = 4'd7,   // waiting for the line; it goes into the buffer
    IpErase  = 4'd8,   // Erase
    IpErWait = 4'd9,
    IpPgWait = 4'd10,  // the plane idle (the program before done), first line read from the buffer
    IpBeats  = 4'd11,  // data-in of page pg_q's lines
    IpPgCmd  = 4'd12,  // the Program
    IpPgLast = 4'd13,  // the last program done
    IpCount  = 4'd14,  // read-count reset
    IpHalt   = 4'd15
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
  logic [LineBits-1:0] ln_q;
  logic fresh_q, cc_wait_q;  // a command issued last cycle (the plane's busy flag lags a cycle)
  logic [31:0] ref_q, rd_q, prog_q, er_q, pois_q, due_q, lim_q, pend_cnt_q;
  logic alarm_q, err_q;
  logic [2:0] code_q;
  logic last_line, last_page, plane_done;
  assign last_line = 32'(ln_q) == Lines - 1;
  assign last_page = 32'(pg_q) == Pages - 1;
  assign plane_done = !fresh_q && plane_idle_i[pl_q];

  // --- block buffer: {poison, data} a line, a page after the other ---------------------------
  logic buf_we;
  logic [BufAddr-1:0] buf_wa, buf_ra;
  logic [DataBits:0] buf_wd, buf_rd;
  flint_sram #(.Width(DataBits + 1), .Depth(Pages * Lines)) u_buf (
    .clk_i, .rd_en_i(1'b1), .rd_addr_i(buf_ra), .rd_data_o(buf_rd),
    .wr_en_i(buf_we), .wr_addr_i(buf_wa), .wr_data_i(buf_wd));

  // SEC-DED decode of a line read out.
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
  logic dec_bad;
  assign dec_bad = dec_st == flint_pkg::StatusUncorrectable;
  assign buf_we = st_q == IpData && dout_valid_i;
  assign buf_wa = BufAddr'({pg_q, ln_q});
  assign buf_wd = {dec_bad, dec_out};
  // Program side: the line of the next beat is read a cycle ahead.
  always_comb begin
    buf_ra = BufAddr'({pg_q, ln_q});
    if (st_q == IpBeats) buf_ra = BufAddr'({pg_q, ln_q} + 1'b1);
  end
  // Encoded again; an uncorrectable line stays uncorrectable (flint_ecc_cl_img).
  flint_ecc_cl_img u_img (
    .data_i  (buf_rd[DataBits-1:0]),
    .poison_i(buf_rd[DataBits]),
    .img_o   (din_data_o)
  );
  assign din_valid_o = st_q == IpBeats;

  // --- maintenance port ---------------------------------------------------------------------
  always_comb begin
    unique case (st_q)
      IpRead:  m_valid_o = plane_idle_i[pl_q];
      IpMove:  m_valid_o = plane_idle_i[pl_q] && io_ready_i;
      IpOut:   m_valid_o = io_ready_i && plane_cache_i[pl_q];
      IpErase: m_valid_o = plane_idle_i[pl_q];
      IpPgCmd: m_valid_o = 1'b1;
      default: m_valid_o = 1'b0;
    endcase
    unique case (st_q)
      IpRead:  m_op_o = OpRead;
      IpMove:  m_op_o = OpEnd;
      IpErase: m_op_o = OpErase;
      IpPgCmd: m_op_o = OpProgram;
      default: m_op_o = OpOut;
    endcase
  end
  assign m_plane_o = pl_q;
  assign m_block_o = blk_q;
  assign m_page_o = pg_q;
  assign m_line_o = ln_q;
  logic m_fire;
  assign m_fire = m_valid_o && m_ready_i;

  // --- the refresh of one block --------------------------------------------------------------
  always_comb begin
    st_d = st_q;
    unique case (st_q)
      IpOff:    if (enable_i) st_d = IpScan;
      IpScan:   if (scan_hit) st_d = IpPark;
      IpPark:   if (parked_i) st_d = IpRead;
      IpRead:   if (m_fire) st_d = IpSense;
      IpSense:  if (plane_done) st_d = IpMove;
      IpMove:   if (m_fire) st_d = IpOut;
      IpOut:    if (m_fire) st_d = IpData;
      IpData:   if (dout_valid_i) st_d = last_line ? (last_page ? IpErase : IpRead) : IpOut;
      IpErase:  if (m_fire) st_d = IpErWait;
      IpErWait: if (plane_done) st_d = IpPgWait;
      IpPgWait: if (plane_done) st_d = IpBeats;
      IpBeats:  if (last_line) st_d = IpPgCmd;
      IpPgCmd:  if (m_fire) st_d = last_page ? IpPgLast : IpPgWait;
      IpPgLast: if (plane_done) st_d = IpCount;
      IpCount:  if (cc_rsp_valid_i) st_d = IpScan;
      default:  ;
    endcase
    if (err_q) st_d = IpHalt;
    if (!enable_i) st_d = IpOff;
  end
  assign cc_valid_o = st_q == IpCount && !cc_wait_q;
  assign cc_plane_o = pl_q;
  assign cc_block_o = blk_q;
  // From the first read-out to the count reset: nothing of this block may be served.
  assign park_o = st_q != IpOff && st_q != IpScan && st_q != IpHalt;
  // The read-out senses are not counted: the block is erased next and its count reset, and
  // counting them would carry a block due at its trip point past the limit (a false alarm).
  assign sn_valid_o = 1'b0;
  assign sn_plane_o = pl_q;
  assign sn_block_o = blk_q;

  logic pend_add, pend_done;
  assign pend_add = evt_valid_i && !evt_limit_i && !pend_q[{evt_plane_i, evt_block_i}];
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
    if (evt_valid_i && !evt_limit_i) pend_d = pend_d | (pend_one << {evt_plane_i, evt_block_i});
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
      fresh_q <= 1'b0;
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
      code_q <= '0;
    end else begin
      st_q <= st_d;
      fresh_q <= m_fire;
      if (cc_valid_o && cc_ready_i) cc_wait_q <= 1'b1;
      else if (cc_rsp_valid_i) cc_wait_q <= 1'b0;
      // Due blocks wait in the bitmap (a block comes due once an erase cycle).
      if (evt_valid_i) begin
        if (evt_limit_i) begin
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
      // Read-out.
      if (st_q == IpRead && m_fire) rd_q <= rd_q + 1'b1;
      if (st_q == IpData && dout_valid_i) begin
        ln_q <= ln_q + 1'b1;
        if (last_line) pg_q <= last_page ? '0 : pg_q + 1'b1;
        if (dec_bad) pois_q <= pois_q + 1'b1;
      end
      // Erase.
      if (st_q == IpErase && m_fire) er_q <= er_q + 1'b1;
      if (st_q == IpErWait && plane_done && plane_fail_i[pl_q]) begin
        err_q <= 1'b1;
        code_q <= 3'd3;
      end
      // Program back.
      if (st_q == IpBeats) ln_q <= ln_q + 1'b1;
      if (st_q == IpPgCmd && m_fire) begin
        prog_q <= prog_q + 1'b1;
        if (!last_page) pg_q <= pg_q + 1'b1;
      end
      if ((st_q == IpPgWait || st_q == IpPgLast) && plane_done && plane_fail_i[pl_q] &&
          !(st_q == IpPgWait && pg_q == '0)) begin
        err_q <= 1'b1;
        code_q <= 3'd2;
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

  // --- invariants ------------------------------------------------------------------------------
  // Every NAND operation of a refresh runs parked: no burst is served beside it.
  `FLINT_ASSERT_IMPLY(RefreshOnlyParked, m_valid_o, parked_i)
  // The block buffer is written page by page, line by line, and read back the same way.
  `FLINT_ASSERT_IMPLY(ProgramAfterErase, m_valid_o && m_op_o == OpProgram, er_q != '0)
  `FLINT_ASSERT(PendingCount, 32'(pend_cnt_q) <= PhysPl * Blocks)

  // Functional cover points: each phase of an in-place refresh, a queue of due blocks, a line
  // that could not be corrected, the limit alarm.
  `FLINT_COVER(c_ip_park, st_q == IpPark)
  `FLINT_COVER(c_ip_read_out, st_q == IpData && dout_valid_i)
  `FLINT_COVER(c_ip_erase, st_q == IpErWait)
  `FLINT_COVER(c_ip_program, st_q == IpPgCmd && m_fire)
  `FLINT_COVER(c_ip_count, st_q == IpCount && cc_rsp_valid_i)
  `FLINT_COVER(c_ip_pending_many, pend_cnt_q > 32'd1)
  `FLINT_COVER(c_ip_poisoned_line, st_q == IpData && dout_valid_i && dec_bad)
  `FLINT_COVER(c_ip_limit_event, evt_valid_i && evt_limit_i)
endmodule
`default_nettype wire
