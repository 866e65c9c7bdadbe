// Read-disturb counters, one per physical block (paper section 4.2, docs/ftl.md).
//
// Every sense of a page increments the count of its physical block (die, physical plane,
// block). A block's count raises two events on the trip stream, each once per erase cycle:
//   due   (evt_limit_o = 0) when the count reaches the block's staggered trip point
//         T = DisturbLimit - TripMargin - offset, offset = the top StaggerBits bits of
//         key . 2^StaggerBits / 2^KeyBits, key = the bit-reversed block address {block, die,
//         plane}: the copies of one block index on the planes and dies of a stack (which
//         striping reads equally often) come due spread over a window of 2^StaggerBits senses;
//   limit (evt_limit_o = 1) when it reaches DisturbLimit: the block was not refreshed in time.
// With PhaseStagger = 1 the offset is a phase instead: the sweep after reset starts each count at
// its block's offset and every block trips at DisturbLimit - TripMargin, so only the first trip
// comes early and later ones follow a whole trip period apart (the in-place distributed refresh
// baseline, whose refreshes must spread in time without coming more often; docs/refresh.md).
// The count is then senses + offset until the first reset, so the limit alarm errs early.
// The count saturates at 2^CountBits - 1 (never wraps); a command resets it after an erase.
//
// Storage: one flint_sram of Dies*PhysPlanes*Blocks counts, cleared by a sweep after reset
// (busy_o high for that many cycles; nothing is accepted meanwhile).
// Pipeline: an operation is accepted in cycle t (read issued), its count is updated and written
// back in t+1, with forwarding when the next operation names the same block. Sustained rate: one
// sense a cycle (a burst brings Dies*Planes senses every BurstPeriodCycles, at most a quarter
// of that in the configs). The command port (erase reset or read; the response, one cycle
// after the update, carries the count before the command) takes precedence over senses for its
// one cycle. Events are never dropped: senses stall (sense_ready_o low) when the EventDepth
// queue could overflow. A sense or command naming a block outside the geometry is dropped (a
// command answers ok = 0) and sets the sticky err_o.
`default_nettype none
`include "flint_assert.svh"
module flint_read_counters #(
  parameter int unsigned Dies         = flint_cfg_pkg::Dies,
  parameter int unsigned PhysPlanes   = flint_cfg_pkg::PhysPlanes,
  parameter int unsigned Blocks       = flint_cfg_pkg::Blocks,
  parameter int unsigned DisturbLimit = flint_cfg_pkg::DisturbLimit,
  parameter int unsigned CountBits    = flint_cfg_pkg::DisturbCountBits,
  // stagger window 2^StaggerBits senses: 1/8 to 1/16 of the limit
  parameter int unsigned StaggerBits  = $clog2(DisturbLimit) - 3,
  // senses between the latest trip point and the limit, for the copy to complete
  parameter int unsigned TripMargin   = DisturbLimit / 16,
  parameter int unsigned EventDepth   = 4,
  // 1: the stagger offset is the count's start after reset, not a lower trip point (above)
  parameter int unsigned PhaseStagger = 0,
  // do not override
  localparam int unsigned DieBits       = (Dies > 1) ? $clog2(Dies) : 1,
  localparam int unsigned PhysPlaneBits = $clog2(PhysPlanes),
  localparam int unsigned BlockBits     = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned Counters      = Dies * PhysPlanes * Blocks,
  localparam int unsigned AddrBits      = $clog2(Counters),
  localparam int unsigned KeyBits       = BlockBits + DieBits + PhysPlaneBits,
  localparam int unsigned EvtWidth      = DieBits + PhysPlaneBits + BlockBits + 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  output logic                     busy_o,
  output logic                     err_o,
  // sense events (NAND command sequencer)
  input  logic                     sense_valid_i,
  output logic                     sense_ready_o,
  input  logic [DieBits-1:0]       sense_die_i,
  input  logic [PhysPlaneBits-1:0] sense_plane_i,
  input  logic [BlockBits-1:0]     sense_block_i,
  // command (refresh controller): cmd_read_i = 1 reads the count, 0 resets it after an erase
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic                     cmd_read_i,
  input  logic [DieBits-1:0]       cmd_die_i,
  input  logic [PhysPlaneBits-1:0] cmd_plane_i,
  input  logic [BlockBits-1:0]     cmd_block_i,
  // command response
  output logic                     cmd_rsp_valid_o,
  input  logic                     cmd_rsp_ready_i,
  output logic                     cmd_rsp_ok_o,
  output logic [CountBits-1:0]     cmd_rsp_count_o,
  // trip events (refresh controller)
  output logic                     evt_valid_o,
  input  logic                     evt_ready_i,
  output logic [DieBits-1:0]       evt_die_o,
  output logic [PhysPlaneBits-1:0] evt_plane_o,
  output logic [BlockBits-1:0]     evt_block_o,
  output logic                     evt_limit_o
);
  localparam logic [CountBits-1:0] CountMax = {CountBits{1'b1}};  // not '1: Yosys 0.23 makes that 1
  localparam int unsigned TripBase = DisturbLimit - TripMargin;

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
  // Stagger offset of a block (see the header and docs/ftl.md).
  function automatic logic [CountBits-1:0] offset(input logic [DieBits-1:0] die,
                                                  input logic [PhysPlaneBits-1:0] plane,
                                                  input logic [BlockBits-1:0] block);
    logic [KeyBits-1:0] cat, key;
    cat = {block, die, plane};
    for (int unsigned i = 0; i < KeyBits; i++) key[i] = cat[KeyBits-1-i];
    // key scaled from [0, 2^KeyBits) to [0, 2^StaggerBits): wires, no multiplier
    offset = CountBits'((64'(key) << StaggerBits) >> KeyBits);
  endfunction
  function automatic logic [CountBits-1:0] trip_point(input logic [DieBits-1:0] die,
                                                      input logic [PhysPlaneBits-1:0] plane,
                                                      input logic [BlockBits-1:0] block);
    trip_point = (PhaseStagger != 0) ? CountBits'(TripBase) :
                                CountBits'(TripBase) - offset(die, plane, block);
  endfunction

  logic busy_q;
  logic [AddrBits-1:0] sweep_q;
  // The sweep's block as (die, plane, block), for the start counts of PhaseStagger.
  logic [DieBits-1:0] sw_die_q;
  logic [PhysPlaneBits-1:0] sw_plane_q;
  logic [BlockBits-1:0] sw_block_q;
  logic err_q;
  // Stage B (update) registers.
  logic s1_valid_q, s1_sense_q, s1_erase_q, s1_ok_q, s1_fwd_q;
  logic [AddrBits-1:0] s1_addr_q;
  logic [DieBits-1:0] s1_die_q;
  logic [PhysPlaneBits-1:0] s1_plane_q;
  logic [BlockBits-1:0] s1_block_q;
  logic [CountBits-1:0] fwd_val_q;
  // Command response.
  logic cmd_busy_q, rsp_valid_q, rsp_ok_q;
  logic [CountBits-1:0] rsp_count_q;

  // Stage A: accept one operation, issue the read.
  logic cmd_fire, sense_fire, room;
  logic [DieBits-1:0] a_die;
  logic [PhysPlaneBits-1:0] a_plane;
  logic [BlockBits-1:0] a_block;
  logic a_ok;
  logic [AddrBits-1:0] a_addr;
  // Stage B: update.
  logic [CountBits-1:0] rd_data, old_count, new_count, trip;
  logic saturated, due, at_limit, b_wr;
  // Event queue.
  logic evt_push, evt_in_ready;
  logic [$clog2(EventDepth + 1)-1:0] evt_usage;
  logic [EvtWidth-1:0] evt_data;
  // SRAM write port.
  logic wr_en;
  logic [AddrBits-1:0] wr_addr;
  logic [CountBits-1:0] wr_data;

  // A sense may raise one event one cycle after its acceptance; the one in stage B may raise one
  // now. Accept only when both fit without counting on a pop.
  assign room = 32'(EventDepth) - 32'(evt_usage) >= 32'(1) + 32'(s1_valid_q && s1_sense_q);
  assign cmd_ready_o   = !busy_q && !cmd_busy_q;
  assign cmd_fire      = cmd_valid_i && cmd_ready_o;
  assign sense_ready_o = !busy_q && !cmd_fire && room;
  assign sense_fire    = sense_valid_i && sense_ready_o;
  assign a_die   = cmd_fire ? cmd_die_i : sense_die_i;
  assign a_plane = cmd_fire ? cmd_plane_i : sense_plane_i;
  assign a_block = cmd_fire ? cmd_block_i : sense_block_i;
  assign a_ok    = in_range(a_die, a_plane, a_block);
  assign a_addr  = addr(a_die, a_plane, a_block);

  assign old_count = s1_fwd_q ? fwd_val_q : rd_data;
  assign saturated = old_count == CountMax;
  assign new_count = saturated ? old_count : old_count + 1'b1;
  assign trip      = trip_point(s1_die_q, s1_plane_q, s1_block_q);
  assign due       = s1_valid_q && s1_sense_q && !saturated && new_count == trip;
  assign at_limit  = s1_valid_q && s1_sense_q && !saturated &&
                     new_count == CountBits'(DisturbLimit);
  assign b_wr      = s1_valid_q && s1_ok_q && (s1_sense_q || s1_erase_q);

  assign wr_en   = busy_q || b_wr;
  assign wr_addr = busy_q ? sweep_q : s1_addr_q;
  logic [CountBits-1:0] start_count;
  assign start_count = (PhaseStagger != 0) ? offset(sw_die_q, sw_plane_q, sw_block_q) : '0;
  assign wr_data = busy_q ? start_count : s1_erase_q ? '0 : new_count;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b1;
      sweep_q     <= '0;
      sw_die_q    <= '0;
      sw_plane_q  <= '0;
      sw_block_q  <= '0;
      err_q       <= 1'b0;
      s1_valid_q  <= 1'b0;
      s1_sense_q  <= 1'b0;
      s1_erase_q  <= 1'b0;
      s1_ok_q     <= 1'b0;
      s1_fwd_q    <= 1'b0;
      s1_addr_q   <= '0;
      s1_die_q    <= '0;
      s1_plane_q  <= '0;
      s1_block_q  <= '0;
      fwd_val_q   <= '0;
      cmd_busy_q  <= 1'b0;
      rsp_valid_q <= 1'b0;
      rsp_ok_q    <= 1'b0;
      rsp_count_q <= '0;
    end else begin
      if (busy_q) begin
        sweep_q <= sweep_q + 1'b1;
        if (32'(sweep_q) == Counters - 1) busy_q <= 1'b0;
        // addr() order: block fastest, then plane, then die
        if (32'(sw_block_q) == Blocks - 1) begin
          sw_block_q <= '0;
          if (32'(sw_plane_q) == PhysPlanes - 1) begin
            sw_plane_q <= '0;
            sw_die_q <= sw_die_q + 1'b1;
          end else begin
            sw_plane_q <= sw_plane_q + 1'b1;
          end
        end else begin
          sw_block_q <= sw_block_q + 1'b1;
        end
      end
      if ((cmd_fire || sense_fire) && !a_ok) err_q <= 1'b1;
      // A sense outside the geometry is dropped here; a command still goes through for its
      // answer (ok = 0) but touches no count.
      s1_valid_q <= cmd_fire || (sense_fire && a_ok);
      s1_sense_q <= !cmd_fire;
      s1_erase_q <= cmd_fire && !cmd_read_i;
      s1_ok_q    <= a_ok;
      s1_fwd_q   <= b_wr && a_addr == s1_addr_q;
      s1_addr_q  <= a_addr;
      s1_die_q   <= a_die;
      s1_plane_q <= a_plane;
      s1_block_q <= a_block;
      fwd_val_q  <= wr_data;
      if (cmd_fire) cmd_busy_q <= 1'b1;
      else if (rsp_valid_q && cmd_rsp_ready_i) cmd_busy_q <= 1'b0;
      if (s1_valid_q && !s1_sense_q) begin
        rsp_valid_q <= 1'b1;
        rsp_ok_q    <= s1_ok_q;
        rsp_count_q <= s1_ok_q ? old_count : '0;
      end else if (cmd_rsp_ready_i) begin
        rsp_valid_q <= 1'b0;
      end
    end
  end

  flint_sram #(
    .Width(CountBits),
    .Depth(Counters)
  ) u_counts (
    .clk_i,
    .rd_en_i  ((cmd_fire || sense_fire) && a_ok),
    .rd_addr_i(a_addr),
    .rd_data_o(rd_data),
    .wr_en_i  (wr_en),
    .wr_addr_i(wr_addr),
    .wr_data_i(wr_data)
  );

  assign evt_push = due || at_limit;
  assign evt_data = {s1_die_q, s1_plane_q, s1_block_q, at_limit};
  flint_fifo #(
    .Width(EvtWidth),
    .Depth(EventDepth)
  ) u_events (
    .clk_i,
    .rst_ni,
    .in_valid_i (evt_push),
    .in_ready_o (evt_in_ready),
    .in_data_i  (evt_data),
    .out_valid_o(evt_valid_o),
    .out_ready_i(evt_ready_i),
    .out_data_o ({evt_die_o, evt_plane_o, evt_block_o, evt_limit_o}),
    .usage_o    (evt_usage)
  );

  assign busy_o          = busy_q;
  assign err_o           = err_q;
  assign cmd_rsp_valid_o = rsp_valid_q;
  assign cmd_rsp_ok_o    = rsp_ok_q;
  assign cmd_rsp_count_o = rsp_count_q;

`ifndef SYNTHESIS
`ifdef FORMAL
  // Yosys -formal has no $fatal: the same parameter check as an assertion (scripts/formal.py).
  always @(posedge clk_i) begin
    assert (!(TripMargin < 1 || 64'(TripBase) < (64'd1 << StaggerBits) ||
              64'(CountMax) < 64'(DisturbLimit) || EventDepth < 2));
  end
`else
  initial begin
    if (TripMargin < 1 || 64'(TripBase) < (64'd1 << StaggerBits) ||
        64'(CountMax) < 64'(DisturbLimit) || EventDepth < 2) begin
      $fatal(1, "%m: bad parameters: limit %0d margin %0d stagger bits %0d count bits %0d",
             DisturbLimit, TripMargin, StaggerBits, CountBits);
    end
  end
`endif
  // The sweep's (die, plane, block) names the counter it writes.
  `FLINT_ASSERT(a_sweep_place, !busy_q || sweep_q == addr(sw_die_q, sw_plane_q, sw_block_q))
  `FLINT_ASSERT_IMPLY(a_sense_stable, $past(rst_ni && sense_valid_i && !sense_ready_o),
                      sense_valid_i && sense_die_i == $past(sense_die_i) &&
                      sense_plane_i == $past(sense_plane_i) &&
                      sense_block_i == $past(sense_block_i))
  `FLINT_ASSERT_IMPLY(a_cmd_stable, $past(rst_ni && cmd_valid_i && !cmd_ready_o),
                      cmd_valid_i && cmd_read_i == $past(cmd_read_i) &&
                      cmd_die_i == $past(cmd_die_i) && cmd_plane_i == $past(cmd_plane_i) &&
                      cmd_block_i == $past(cmd_block_i))
  `FLINT_ASSERT_IMPLY(a_rsp_stable, $past(cmd_rsp_valid_o && !cmd_rsp_ready_i),
                      cmd_rsp_valid_o && cmd_rsp_ok_o == $past(cmd_rsp_ok_o) &&
                      cmd_rsp_count_o == $past(cmd_rsp_count_o))
  // A count never wraps: a sense adds one or leaves a saturated count where it is.
  `FLINT_ASSERT_IMPLY(a_no_wrap, b_wr && s1_sense_q,
                      new_count > old_count || (saturated && new_count == CountMax))
  `FLINT_ASSERT_IMPLY(a_trip_below_limit, s1_valid_q,
                      trip >= CountBits'(1) && 32'(trip) <= TripBase &&
                      32'(trip) < DisturbLimit)
  // Events are never dropped.
  `FLINT_ASSERT_IMPLY(a_event_fits, evt_push, evt_in_ready)
  `FLINT_ASSERT_IMPLY(a_one_event, evt_push, !(due && at_limit))
  `FLINT_COVER(c_saturated, b_wr && s1_sense_q && saturated)
  `FLINT_COVER(c_forwarded, s1_valid_q && s1_fwd_q)
  `FLINT_COVER(c_due, due)
  `FLINT_COVER(c_limit, at_limit)
  `FLINT_COVER(c_stall_on_events, sense_valid_i && !busy_q && !cmd_fire && !room)
  // Commands (erase reset, read), a command taking the slot of a waiting sense, a sense and a
  // command outside the geometry, an event held by its consumer.
  `FLINT_COVER(c_cmd_erase, cmd_fire && !cmd_read_i)
  `FLINT_COVER(c_cmd_read, cmd_fire && cmd_read_i)
  `FLINT_COVER(c_cmd_beats_sense, cmd_fire && sense_valid_i)
  `FLINT_COVER(c_sense_out_of_range, sense_fire && !a_ok)
  `FLINT_COVER(c_cmd_out_of_range, cmd_fire && !a_ok)
  `FLINT_COVER(c_event_held, evt_valid_o && !evt_ready_i)
  // An erase reset forwarded to the next sense of the same block.
  `FLINT_COVER(c_erase_forwarded, s1_valid_q && s1_fwd_q && s1_sense_q && $past(s1_erase_q))
`endif
endmodule
`default_nettype wire
