// Formal property wrapper of flint_read_counters (docs/formal.md; run by scripts/formal.py).
// For one block the solver picks (tb_q: any value, then constant), proven by induction:
//   - the count is exact and never wraps: a shadow count (senses of the block accepted since the
//     last erase reset, saturating at 2^CountBits - 1) equals what a read command answers, and
//     the old count each update starts from;
//   - it trips before the limit: the block's due event is raised exactly when its count reaches
//     its trip point, which is below DisturbLimit, and its limit event exactly when the count
//     reaches DisturbLimit; each at most once per erase cycle (the count passes each value once);
//   - the module's own assertions (a_no_wrap, a_trip_below_limit, a_event_fits, ...).
// tap_* inputs are bound by scripts/formal.py to the module's internal signals and SRAM words.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_read_counters_props #(
  parameter int unsigned Dies         = 1,
  parameter int unsigned PhysPlanes   = 2,
  parameter int unsigned Blocks       = 2,
  parameter int unsigned DisturbLimit = 6,
  parameter int unsigned CountBits    = 3,
  parameter int unsigned StaggerBits  = 1,
  parameter int unsigned TripMargin   = 1,
  parameter int unsigned EventDepth   = 2,
  // do not override
  localparam int unsigned DieBits       = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned PhysPlaneBits = $clog2(PhysPlanes),
  localparam int unsigned BlockBits     = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned Counters      = Dies * PhysPlanes * Blocks,
  localparam int unsigned AddrBits      = $clog2(Counters)
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      sense_valid_i,
  input logic [DieBits-1:0]        sense_die_i,
  input logic [PhysPlaneBits-1:0]  sense_plane_i,
  input logic [BlockBits-1:0]      sense_block_i,
  input logic                      cmd_valid_i,
  input logic                      cmd_read_i,
  input logic [DieBits-1:0]        cmd_die_i,
  input logic [PhysPlaneBits-1:0]  cmd_plane_i,
  input logic [BlockBits-1:0]      cmd_block_i,
  input logic                      cmd_rsp_ready_i,
  input logic                      evt_ready_i,
  // bound to internals by scripts/formal.py
  input logic                      tap_busy,
  input logic [AddrBits-1:0]       tap_sweep,
  input logic                      tap_s1_valid,
  input logic                      tap_s1_ok,
  input logic                      tap_s1_sense,
  input logic [AddrBits-1:0]       tap_s1_addr,
  input logic                      tap_b_wr,
  input logic [CountBits-1:0]      tap_wr_data,
  input logic [CountBits-1:0]      tap_old_count,
  input logic [CountBits-1:0]      tap_trip,
  input logic                      tap_due,
  input logic                      tap_at_limit,
  input logic                      tap_cmd_busy,
  input logic [$clog2(EventDepth)-1:0]   tap_evt_rd,   // the event FIFO's pointers and count
  input logic [$clog2(EventDepth)-1:0]   tap_evt_wr,
  input logic [$clog2(EventDepth+1)-1:0] tap_evt_cnt,
  input logic [Counters*CountBits-1:0] tap_mem  // count of block address a at [a*CountBits +:]
);
  logic busy, err, sense_ready, cmd_ready, rsp_valid, rsp_ok, evt_valid;
  logic [CountBits-1:0] rsp_count;
  logic [DieBits-1:0] evt_die;
  logic [PhysPlaneBits-1:0] evt_plane;
  logic [BlockBits-1:0] evt_block;
  logic evt_limit;

  flint_read_counters #(
    .Dies(Dies), .PhysPlanes(PhysPlanes), .Blocks(Blocks), .DisturbLimit(DisturbLimit),
    .CountBits(CountBits), .StaggerBits(StaggerBits), .TripMargin(TripMargin),
    .EventDepth(EventDepth), .PhaseStagger(0)
  ) u_dut (
    .clk_i,
    .rst_ni,
    .busy_o         (busy),
    .err_o          (err),
    .sense_valid_i,
    .sense_ready_o  (sense_ready),
    .sense_die_i,
    .sense_plane_i,
    .sense_block_i,
    .cmd_valid_i,
    .cmd_ready_o    (cmd_ready),
    .cmd_read_i,
    .cmd_die_i,
    .cmd_plane_i,
    .cmd_block_i,
    .cmd_rsp_valid_o(rsp_valid),
    .cmd_rsp_ready_i,
    .cmd_rsp_ok_o   (rsp_ok),
    .cmd_rsp_count_o(rsp_count),
    .evt_valid_o    (evt_valid),
    .evt_ready_i,
    .evt_die_o      (evt_die),
    .evt_plane_o    (evt_plane),
    .evt_block_o    (evt_block),
    .evt_limit_o    (evt_limit)
  );
  logic unused;
  assign unused = ^{busy, err, evt_valid, evt_die, evt_plane, evt_block, evt_limit};

  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  // Environment: the valid/ready rule on the inputs (the module asserts it as a_sense_stable and
  // a_cmd_stable): a request waiting for ready stays, unchanged.
  logic past_sense_wait_q, past_cmd_wait_q;
  logic [DieBits+PhysPlaneBits+BlockBits-1:0] past_sense_q;
  logic [DieBits+PhysPlaneBits+BlockBits:0] past_cmd_q;
  always @(posedge clk_i) begin
    past_sense_wait_q <= rst_ni && sense_valid_i && !sense_ready;
    past_cmd_wait_q   <= rst_ni && cmd_valid_i && !cmd_ready;
    past_sense_q      <= {sense_die_i, sense_plane_i, sense_block_i};
    past_cmd_q        <= {cmd_read_i, cmd_die_i, cmd_plane_i, cmd_block_i};
  end
  always @(*) begin
    if (rst_ni && past_sense_wait_q) begin
      assume (sense_valid_i && {sense_die_i, sense_plane_i, sense_block_i} == past_sense_q);
    end
    if (rst_ni && past_cmd_wait_q) begin
      assume (cmd_valid_i && {cmd_read_i, cmd_die_i, cmd_plane_i, cmd_block_i} == past_cmd_q);
    end
  end

  // The tracked block: an address the solver chooses, constant for the run.
  logic [AddrBits-1:0] tb_q;
  always @(posedge clk_i) tb_q <= tb_q;

  // All ones, spelled out: Yosys 0.23 elaborates a parameter-width '1 as 1 (docs/formal.md).
  localparam logic [CountBits-1:0] CountMax = {CountBits{1'b1}};
  function automatic logic [AddrBits-1:0] addr(input logic [DieBits-1:0] die,
                                               input logic [PhysPlaneBits-1:0] plane,
                                               input logic [BlockBits-1:0] block);
    addr = AddrBits'((32'(die) * PhysPlanes + 32'(plane)) * Blocks + 32'(block));
  endfunction
  function automatic logic in_range(input logic [DieBits-1:0] die,
                                    input logic [PhysPlaneBits-1:0] plane,
                                    input logic [BlockBits-1:0] block);
    in_range = 32'(die) < Dies && 32'(plane) < PhysPlanes && 32'(block) < Blocks;
  endfunction

  // --- the shadow count of the tracked block (from the handshakes) ------------------------------
  logic cmd_fire, sense_fire, cmd_tb, sense_tb;
  assign cmd_fire   = cmd_valid_i && cmd_ready;
  assign sense_fire = sense_valid_i && sense_ready;
  // At most one of the two fires: a command takes the cycle (sense_ready_o is low meanwhile).
  assign cmd_tb   = cmd_fire && in_range(cmd_die_i, cmd_plane_i, cmd_block_i) &&
                    addr(cmd_die_i, cmd_plane_i, cmd_block_i) == tb_q;
  assign sense_tb = sense_fire && in_range(sense_die_i, sense_plane_i, sense_block_i) &&
                    addr(sense_die_i, sense_plane_i, sense_block_i) == tb_q;

  logic [CountBits-1:0] sc_q;       // the count, all accepted operations applied
  logic [CountBits-1:0] before_q;   // the count before the operation now in the update stage
  logic                 op_tb_q;    // the operation now in the update stage is on the block
  logic                 rq_q;       // a read command of the block is waiting for its answer
  logic [CountBits-1:0] exp_q;      // its expected answer
  logic [CountBits-1:0] sc_next;
  always @(*) begin
    sc_next = sc_q;
    if (sense_tb && sc_q != CountMax) sc_next = sc_q + 1'b1;
    if (cmd_tb && !cmd_read_i) sc_next = '0;
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sc_q     <= '0;
      before_q <= '0;
      op_tb_q  <= 1'b0;
      rq_q     <= 1'b0;
      exp_q    <= '0;
    end else begin
      sc_q     <= sc_next;
      before_q <= sc_q;
      op_tb_q  <= cmd_tb || sense_tb;
      if (cmd_tb && cmd_read_i) begin
        rq_q  <= 1'b1;
        exp_q <= sc_q;
      end else if (rsp_valid && cmd_rsp_ready_i) begin
        rq_q <= 1'b0;
      end
    end
  end

  // The count in the table as the block will hold it after this cycle's write, if any.
  logic [CountBits-1:0] table_cnt, stored;
  assign stored    = tap_mem[tb_q*CountBits +: CountBits];
  assign table_cnt = (tap_b_wr && tap_s1_addr == tb_q) ? tap_wr_data : stored;
  logic upd_tb;  // the update stage holds a sense of the block
  assign upd_tb = tap_s1_valid && tap_s1_sense && tap_s1_ok && tap_s1_addr == tb_q;

  logic [$clog2(EventDepth)-1:0] evt_wr_exp;  // a variable: see the cast note in docs/formal.md
  assign evt_wr_exp = tap_evt_rd + tap_evt_cnt[$clog2(EventDepth)-1:0];

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
`ifndef BREAK_PROP
      // A read command answers the exact count: never wrapped, saturated at the top.
      if (rq_q && rsp_valid) a_read_exact: assert (rsp_ok && rsp_count == exp_q);
`else
      // Broken on purpose (non-vacuity): claims a read answers one more than the count.
      if (rq_q && rsp_valid) a_read_exact: assert (rsp_ok && rsp_count == exp_q + 1'b1);
`endif
      // Each update of the block starts from the count before it.
      if (upd_tb) a_update_from_count: assert (tap_old_count == before_q);
      // Trips before the limit, exactly once per erase cycle; the limit alarm exactly at it.
      if (upd_tb) begin
        a_trip_below: assert (tap_trip < CountBits'(DisturbLimit));
        a_due_exact: assert (tap_due == (before_q != CountMax && sc_q == tap_trip));
        a_limit_exact: assert (tap_at_limit == (before_q != CountMax &&
                                                sc_q == CountBits'(DisturbLimit)));
      end
      // Induction strengthening: the table agrees with the shadow; the sweep clears it first.
      if (!tap_busy) a_table: assert (table_cnt == sc_q);
      if (tap_busy) begin
        a_busy_idle: assert (!tap_s1_valid && sc_q == '0 && !rq_q);
        if (tb_q < tap_sweep) a_swept: assert (stored == '0);
      end
      // One command at a time: accepted, in the update stage, then answered until taken.
      a_cmd_stage: assert ((tap_s1_valid && !tap_s1_sense) == (tap_cmd_busy && !rsp_valid));
      if (rsp_valid) a_rsp_busy: assert (tap_cmd_busy);
      // The event queue: pointers agree with the count (EventDepth a power of two here), and a
      // sense in the update stage has its event's place reserved.
      a_evt_ptrs: assert (tap_evt_wr == evt_wr_exp);
      a_evt_room: assert (32'(tap_evt_cnt) + 32'(tap_s1_valid && tap_s1_sense) <= EventDepth);
      a_op_tb: assert (op_tb_q == (tap_s1_valid && tap_s1_ok && tap_s1_addr == tb_q));
      if (op_tb_q) a_op_from_count: assert (tap_old_count == before_q);
      // A read of the block waiting for its answer is in the update stage until it answers.
      if (rq_q && !rsp_valid) begin
        a_read_in_flight: assert (op_tb_q && !tap_s1_sense && before_q == exp_q);
      end
    end
  end
endmodule
`default_nettype wire
