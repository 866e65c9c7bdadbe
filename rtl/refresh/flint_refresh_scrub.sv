// The scrubber of one refresh die (docs/refresh.md, "The scrubber"): when the controller has had
// nothing to do for IdleWait cycles, it parks the controller, reads next[b] of some block from the
// source plane S (a ReadPage on the maintenance sequencer: the lines come back SEC-DED decoded)
// and pushes the page into the program queue; a line that cannot be corrected goes in poisoned,
// so the copy still reads back UNCORRECTABLE. With StealPace > 0 it also parks a busy controller
// for one page when the program queue is empty and the copy is behind one page every StealPace
// cycles. Its cursor walks the live blocks round robin; next[] and src[] are the parent's tables,
// read at cur_o and block_o (the data the cycle after). It starts only with room for a page in
// the queue, and asks for the read only with room still there whatever the fork does
// meanwhile: at once if the queue has room for the page and the fork pages of ACTIVE and NEXT
// (the most the fork can open before the read's lines are in: parked, the controller senses
// nothing new, and the sequencer holds its cache buffers until the page is read out), once the
// controller's page buffers are free (sense_free_i: NEXT has moved) if it has room for the page
// and ACTIVE's, else once parked (no fork line comes then). The sequencer Reads as soon as the
// page buffers are free, so the read's sense overlaps the last ACTIVE's service. The scrubber
// parks the controller until the sequencer has the read (which then parks and holds it itself
// for the read's own steps). One read in flight.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_scrub #(
  parameter int unsigned IdleWait  = flint_cfg_pkg::BurstPeriodCycles,  // idle cycles to scrub
  parameter int unsigned StealPace = 0,  // 0: scrub only when idle; N: keep a page a N cycles
  // do not override
  localparam int unsigned Blocks    = flint_cfg_pkg::Blocks,
  localparam int unsigned Pages     = flint_cfg_pkg::Pages,
  localparam int unsigned Lines     = flint_cfg_pkg::ClPerPage,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned DataBits  = flint_cfg_pkg::ClDataBits,
  localparam int unsigned NextBits  = PageBits + 1,
  localparam int unsigned CountBits = $clog2(Blocks * Pages + 1),
  localparam int unsigned OccBits   = $clog2(flint_cfg_pkg::ProgqPages + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the rotation step: copying (step_start_i: the copy begins next cycle), pages to copy, done
  input  logic                 copying_i,
  input  logic                 step_start_i,
  input  logic [BlockBits:0]   live_blocks_i,
  input  logic [CountBits-1:0] total_i,
  input  logic [CountBits-1:0] done_i,
  // the burst-buffer controller: idle, its page buffers free, parked
  input  logic                 bbc_empty_i,
  input  logic                 sense_free_i,
  input  logic                 parked_i,
  // the fork (its lookup owns the next table's read port; its open page's block is not ours)
  input  logic                 fk_lookup_i,
  input  logic                 fk_decide_i,
  input  logic                 fk_take_i,      // a page taken (its lines may come)
  input  logic                 fk_open_i,
  input  logic [BlockBits-1:0] fk_block_i,
  // the tables: next[cur_o], src[block_o], a cycle after their address
  output logic [BlockBits-1:0] cur_o,
  input  logic [NextBits-1:0]  nx_rd_i,
  input  logic [BlockBits-1:0] src_rd_i,
  // the page held: logical block, page, S's physical block
  output logic                 busy_o,         // holding a page: parking for it or reading it
  output logic                 park_o,         // park the controller: until the read is taken
  output logic [BlockBits-1:0] block_o,
  output logic [PageBits-1:0]  page_o,
  output logic [BlockBits-1:0] pblock_o,
  output logic                 page_in_o,      // its last line is in the queue
  // the program queue's scrub port
  input  logic [OccBits-1:0]   pq_occ_i,
  output logic                 sq_valid_o,
  input  logic                 sq_ready_i,
  output logic                 sq_open_o,
  output logic [LineBits-1:0]  sq_line_o,
  output logic [DataBits:0]    sq_data_o,      // {poison, data}
  // the ReadPage: request (through the die's request mux), answer, decoded lines
  output logic                 req_o,
  input  logic                 go_i,           // the request is taken
  input  logic                 rsp_i,          // its answer
  input  logic                 mrd_valid_i,
  output logic                 mrd_ready_o,
  input  logic [DataBits-1:0]  mrd_data_i,
  input  flint_pkg::status_e   mrd_status_i,
  input  logic [LineBits-1:0]  mrd_line_i,
  // statistics
  output logic [31:0]          scrubbed_o,     // pages copied
  output logic [31:0]          poisoned_o      // lines that could not be corrected
);
  localparam int unsigned PaceW = $clog2(StealPace + 2);
  localparam logic [PaceW-1:0] PaceTop = PaceW'((StealPace == 0) ? 0 : StealPace - 1);

  typedef enum logic [3:0] {
    ScIdle  = 4'd0,
    ScFind  = 4'd1,   // reading next[] of the cursor's block
    ScLook  = 4'd2,   // next[] at hand
    ScPark  = 4'd3,   // parking the controller; src[] of the block at hand from its 2nd cycle
    ScReq   = 4'd5,   // ReadPage of S's page
    ScLines = 4'd6,   // its decoded lines into the program queue, then its answer
    ScDone  = 4'd7
  } scrub_e;
  scrub_e sc_q, sc_d;
  logic [BlockBits-1:0] cur_q;          // the block cursor
  logic [BlockBits-1:0] sc_b_q, sc_x_q; // the page's logical block, S's block of it
  logic [PageBits-1:0] sc_p_q;
  logic [$clog2(IdleWait + 1)-1:0] idle_q;
  logic [CountBits-1:0] owed_q;         // pages the pace asks for by now
  logic [PaceW-1:0] pace_q;
  logic sc_steal_q;                     // the page is a steal: the controller is busy
  logic fk_near_q;                      // last cycle the fork held a page of the cursor's block
  logic src_ok_q;                       // in ScPark last cycle too: src_rd_i is of block_o
  logic [31:0] scrubbed_q, poisoned_q;
  logic idle_enough, all_queued, pq_room, pq_room_fk, pq_room_fk2, room_now, behind, steal_due;
  // Room for the page (a scrub open leaves the fork a slot); room for it even if the fork opens
  // a page of ACTIVE meanwhile; even if it opens one of ACTIVE and one of NEXT.
  assign pq_room = 32'(pq_occ_i) + 1 < flint_cfg_pkg::ProgqPages;
  assign pq_room_fk = 32'(pq_occ_i) + 2 < flint_cfg_pkg::ProgqPages;
  assign pq_room_fk2 = 32'(pq_occ_i) + 3 < flint_cfg_pkg::ProgqPages;
  // The room the read needs now: parked since last cycle, no fork line to come (the last one
  // may come in the first parked cycle); page buffers free, a page of ACTIVE's.
  logic parked_q, no_fork;
  assign no_fork = parked_i && parked_q;
  assign room_now = no_fork ? pq_room : sense_free_i ? pq_room_fk : pq_room_fk2;
  assign idle_enough = 32'(idle_q) >= IdleWait;
  assign all_queued = done_i == total_i;
  assign behind = StealPace != 0 && owed_q > done_i;
  // A steal only when the phantom has nothing queued: one page at a time, just in time.
  assign steal_due = behind && pq_occ_i == '0;

  // The read's lines straight into the program queue; an uncorrectable one is copied poisoned.
  logic sc_line_bad, sc_line_go;
  assign sc_line_bad = mrd_status_i == flint_pkg::StatusUncorrectable;
  assign sq_valid_o = sc_q == ScLines && mrd_valid_i;
  assign mrd_ready_o = sc_q == ScLines && sq_ready_i;
  assign sq_open_o = mrd_line_i == '0;
  assign sq_line_o = mrd_line_i;
  assign sq_data_o = {sc_line_bad, mrd_data_i};
  assign sc_line_go = sq_valid_o && sq_ready_i;
  assign page_in_o = sc_line_go && 32'(mrd_line_i) == Lines - 1;
  assign req_o = sc_q == ScReq;
  assign busy_o = sc_q != ScIdle && sc_q != ScFind && sc_q != ScLook;
  assign park_o = sc_q == ScPark || sc_q == ScReq;

  always_comb begin
    sc_d = sc_q;
    unique case (sc_q)
      // Start only with room for a page in the queue: a parked controller must not wait on it.
      ScIdle: if (copying_i && !all_queued && (idle_enough || steal_due) && !fk_lookup_i &&
                  pq_room) begin
        sc_d = ScFind;
      end
      ScFind: sc_d = ScLook;
      ScLook: begin
        if ((!bbc_empty_i && !sc_steal_q) || !copying_i) sc_d = ScIdle;
        else if (fk_decide_i) sc_d = ScFind;  // the port read the fork's block instead
        // next[] read in ScFind misses a page the fork completed in that cycle, and a page the
        // fork has taken and not yet opened completes while this one waits for the park: the
        // block is left alone while the fork holds a page of it, now or in the read's cycle
        // (make soak found the scrubber reading a page the fork had copied meanwhile).
        else if (32'(nx_rd_i) < Pages && !fk_near_q && !fk_near) sc_d = ScPark;
        else sc_d = ScFind;
      end
      // The read is asked for as soon as the queue keeps room for the page whatever the fork
      // does until the read's lines are in; parked, no fork line comes and the queue's room can
      // only grow. Without room for the page then the read is not asked for (the sequencer keeps
      // no line: each goes into the queue as it comes back, ClientReadyForLine): park released,
      // tried again later.
      ScPark: if (src_ok_q) begin
        if (room_now) sc_d = ScReq;
        else if (no_fork) sc_d = ScIdle;
      end
      ScReq: if (go_i) sc_d = ScLines;
      ScLines: if (rsp_i) sc_d = ScDone;
      ScDone: sc_d = (bbc_empty_i && copying_i && done_i + 1'b1 != total_i) ? ScFind : ScIdle;
      default: sc_d = ScIdle;
    endcase
  end

  logic fk_near;
  assign fk_near = (fk_open_i || fk_take_i) && fk_block_i == cur_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sc_q <= ScIdle;
      sc_steal_q <= 1'b0;
      fk_near_q <= 1'b0;
      src_ok_q <= 1'b0;
      parked_q <= 1'b0;
    end else begin
      sc_q <= sc_d;
      fk_near_q <= fk_near;
      src_ok_q <= sc_q == ScPark;
      parked_q <= parked_i;
      if (sc_q == ScIdle && sc_d == ScFind) sc_steal_q <= !idle_enough;
      if (sc_q == ScDone && sc_d == ScFind) sc_steal_q <= 1'b0;  // idle again: an idle scrub
    end
  end
  // The page: the cursor's block and its next[] when parking for it, S's block when parked.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_q <= '0;
      sc_b_q <= '0;
      sc_p_q <= '0;
      sc_x_q <= '0;
    end else begin
      if (sc_q == ScLook) begin
        if (sc_d == ScPark) begin
          sc_b_q <= cur_q;
          sc_p_q <= nx_rd_i[PageBits-1:0];
        end
        cur_q <= (32'(cur_q) + 1 >= 32'(live_blocks_i)) ? '0 : cur_q + 1'b1;
      end
      if (sc_q == ScPark) sc_x_q <= src_rd_i;
    end
  end
  // Idle time: cycles the controller has had no request. The pace: a page owed every StealPace
  // cycles of the copy, from the step's start.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      idle_q <= '0;
      owed_q <= '0;
      pace_q <= '0;
    end else begin
      idle_q <= !bbc_empty_i ? '0 : (idle_enough ? idle_q : idle_q + 1'b1);
      if (StealPace != 0 && copying_i) begin
        if (pace_q == PaceTop) begin
          pace_q <= '0;
          if (owed_q != total_i) owed_q <= owed_q + 1'b1;
        end else begin
          pace_q <= pace_q + 1'b1;
        end
      end
      if (step_start_i) begin
        owed_q <= '0;
        pace_q <= '0;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scrubbed_q <= '0;
      poisoned_q <= '0;
    end else begin
      if (page_in_o) scrubbed_q <= scrubbed_q + 1'b1;
      if (sc_line_go && sc_line_bad) poisoned_q <= poisoned_q + 1'b1;
    end
  end

  assign cur_o = cur_q;
  assign block_o = sc_b_q;
  assign page_o = sc_p_q;
  assign pblock_o = sc_x_q;
  assign scrubbed_o = scrubbed_q;
  assign poisoned_o = poisoned_q;

  // One read at a time: its answer and its lines only while it is out.
  `FLINT_ASSERT_IMPLY(ScrubAnswerAsked, rsp_i, sc_q == ScLines)
  `FLINT_ASSERT_IMPLY(LinesOfScrub, mrd_valid_i, sc_q == ScLines)
  // A steal only when the copy is behind its pace and the phantom has nothing queued.
  `FLINT_ASSERT_IMPLY(StealOnlyBehind, sc_q == ScIdle && sc_d == ScFind && !idle_enough,
                      steal_due)
  // A steal: a busy controller parked for the copy's pace.
  `FLINT_COVER(c_steal, sc_q == ScPark && sc_steal_q && !bbc_empty_i)
  `FLINT_COVER(c_scrub_park, sc_q == ScPark && parked_i)
  `FLINT_COVER(c_scrub_push, sc_line_go)
  `FLINT_COVER(c_scrub_no_room, sc_q == ScPark && no_fork && src_ok_q && !pq_room)
  `FLINT_COVER(c_scrub_early, sc_q == ScPark && sc_d == ScReq && !sense_free_i)
  `FLINT_COVER(c_scrub_sense_free, sc_q == ScPark && sc_d == ScReq && sense_free_i && !parked_i)
  // The read is asked for only with room for its page whatever the fork does.
  `FLINT_ASSERT_IMPLY(ReadWithRoom, sc_q == ScPark && sc_d == ScReq,
                      no_fork ? pq_room : sense_free_i ? pq_room_fk : pq_room_fk2)
endmodule
`default_nettype wire
