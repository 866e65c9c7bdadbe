// Burst scheduler with the cl-to-page map's slots (paper section 4.1, Fig. 7; docs/bbc.md).
//
// Slots small flop entries, one per burst that has queued requests or is resident: {burst,
// queued-request count, cycle of its oldest queued request, resident}. The CRQ adds up to Lanes
// requests a cycle (add_*: each finds the slot of its burst; at most one new burst is allocated a
// cycle, so a lane whose burst is new and differs from the first new one is refused), and the
// server takes sub_n_i queued requests of one slot away a cycle (sub_*: the dies drain ACTIVE in
// parallel). The BBC marks the bursts it senses resident (ACTIVE or NEXT) and clears the mark
// when it releases them; a slot is freed when it is neither resident nor has queued requests.
//
// pick_* is the next burst to sense, combinational from the slots: among slots with queued
// requests that are not resident,
//   Policy 0 (fcfs):          the one with the oldest request;
//   Policy 1 (most-pending):  the one with most queued requests, ties to the oldest, unless some
//                             request is older than AgeCap cycles: then the oldest (starvation
//                             bound).
// This is the pick rule of model/bbc BbcModel::Pick; flint_bbc_sched's own golden model is
// model/bbc/bbc_sched (cycle-exact).
//
// Ages use a free-running cycle counter of AgeBits; an age is now - oldest modulo 2^AgeBits, so
// a request must not wait 2^(AgeBits-1) cycles (asserted).
`default_nettype none
`include "flint_assert.svh"
module flint_bbc_sched #(
  parameter int unsigned Slots     = 8,
  parameter int unsigned BurstBits = flint_cfg_pkg::BurstIdxBits,
  parameter int unsigned CountBits = flint_cfg_pkg::CrqIdxBits + 1,
  parameter int unsigned Policy    = 1,
  parameter int unsigned AgeBits   = 32,
  parameter int unsigned AgeCap    = 4 * flint_cfg_pkg::BurstPeriodCycles,
  parameter int unsigned Lanes     = 1,
  // do not override
  localparam int unsigned SlotBits = (Slots > 1) ? $clog2(Slots) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Lane l offers a request for burst l (add_req_i; ready does not depend on add_valid_i) and
  // add_valid_i says which offered, ready lanes enter the CRQ this cycle.
  input  logic [Lanes-1:0]           add_req_i,
  input  logic [Lanes-1:0]           add_valid_i,
  output logic [Lanes-1:0]           add_ready_o,  // its burst has a slot, or may take a free one
  input  logic [Lanes*BurstBits-1:0] add_burst_i,
  output logic [Lanes*SlotBits-1:0]  add_slot_o,
  output logic [Lanes-1:0]           add_hit_o,    // the burst already had a slot
  // sub_n_i queued requests of slot `sub_slot_i` leave the CRQ (served)
  input  logic                 sub_valid_i,
  input  logic [SlotBits-1:0]  sub_slot_i,
  input  logic [CountBits-1:0] sub_n_i,
  // residency marks
  input  logic                 set_res_i,
  input  logic [SlotBits-1:0]  set_res_slot_i,
  input  logic                 clr_res_i,
  input  logic [SlotBits-1:0]  clr_res_slot_i,
  // the next burst to sense
  output logic                 pick_valid_o,
  output logic [SlotBits-1:0]  pick_slot_o,
  output logic [BurstBits-1:0] pick_burst_o,
  // queued requests of one slot (the BBC asks whether ACTIVE still has some)
  input  logic [SlotBits-1:0]  query_slot_i,
  output logic [CountBits-1:0] query_count_o,
  output logic                 query_valid_o,
  // age of the oldest queued request of another slot (the BBC's age cap on NEXT)
  input  logic [SlotBits-1:0]  age_slot_i,
  output logic [AgeBits-1:0]   age_o,
  output logic [SlotBits:0]    used_o  // slots in use
);
  logic [Slots-1:0]     valid_q, resident_q;
  // Per-slot fields as flat buses (slot s at [s*W +: W]): Yosys keeps them as plain flops.
  logic [Slots*BurstBits-1:0] burst_q;
  logic [Slots*CountBits-1:0] count_q;
  logic [Slots*AgeBits-1:0]   oldest_q;
  logic [AgeBits-1:0]   now_q;

  // --- add: each lane finds its burst's slot; the first lane offering a new burst allocates
  // the lowest free slot, and later lanes with that same burst share it -----------------------
  logic free_found;
  logic [SlotBits-1:0] free_slot;
  always_comb begin
    free_found = 1'b0;
    free_slot = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      if (!valid_q[s] && !free_found) begin
        free_found = 1'b1;
        free_slot = SlotBits'(s);
      end
    end
  end
  logic [Lanes-1:0] hit;
  logic [Lanes*SlotBits-1:0] hit_slot;
  logic new_found;
  logic [BurstBits-1:0] new_burst;
  always_comb begin
    new_found = 1'b0;
    new_burst = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      hit[l] = 1'b0;
      hit_slot[l*SlotBits +: SlotBits] = '0;
      for (int unsigned s = 0; s < Slots; s++) begin
        if (valid_q[s] && !hit[l] &&
            burst_q[s*BurstBits +: BurstBits] == add_burst_i[l*BurstBits +: BurstBits]) begin
          hit[l] = 1'b1;
          hit_slot[l*SlotBits +: SlotBits] = SlotBits'(s);
        end
      end
      if (add_req_i[l] && !hit[l] && !new_found) begin
        new_found = 1'b1;
        new_burst = add_burst_i[l*BurstBits +: BurstBits];
      end
    end
  end
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      add_ready_o[l] = hit[l] || (free_found &&
                       (!new_found || add_burst_i[l*BurstBits +: BurstBits] == new_burst));
      add_slot_o[l*SlotBits +: SlotBits] = hit[l] ? hit_slot[l*SlotBits +: SlotBits] : free_slot;
    end
  end
  assign add_hit_o = hit;
  logic [Lanes-1:0] add_fire;
  assign add_fire = add_valid_i & add_ready_o;
  logic alloc;  // some lane takes the free slot this cycle
  assign alloc = |(add_fire & ~hit);

  // --- pick ----------------------------------------------------------------------------------
  logic [Slots-1:0] cand;
  logic [Slots*AgeBits-1:0] age;
  always_comb begin
    for (int unsigned s = 0; s < Slots; s++) begin
      cand[s] = valid_q[s] && !resident_q[s] && count_q[s*CountBits +: CountBits] != '0;
      age[s*AgeBits +: AgeBits]  = now_q - oldest_q[s*AgeBits +: AgeBits];
    end
  end

  logic old_found, most_found, capped;
  logic [SlotBits-1:0] old_slot, most_slot;
  logic [AgeBits-1:0] old_age, most_age;
  logic [CountBits-1:0] most_count;
  always_comb begin
    old_found = 1'b0;
    old_slot = '0;
    old_age = '0;
    most_found = 1'b0;
    most_slot = '0;
    most_age = '0;
    most_count = '0;
    for (int unsigned s = 0; s < Slots; s++) begin
      if (cand[s] && (!old_found || age[s*AgeBits +: AgeBits] > old_age)) begin
        old_found = 1'b1;
        old_slot = SlotBits'(s);
        old_age = age[s*AgeBits +: AgeBits];
      end
      if (cand[s] && (!most_found || count_q[s*CountBits +: CountBits] > most_count ||
                      (count_q[s*CountBits +: CountBits] == most_count &&
                       age[s*AgeBits +: AgeBits] > most_age))) begin
        most_found = 1'b1;
        most_slot = SlotBits'(s);
        most_count = count_q[s*CountBits +: CountBits];
        most_age = age[s*AgeBits +: AgeBits];
      end
    end
    capped = old_found && (32'(old_age) >= AgeCap);
  end
  assign pick_valid_o = old_found;
  assign pick_slot_o  = (Policy == 0 || capped) ? old_slot : most_slot;
  assign pick_burst_o = burst_q[32'(pick_slot_o)*BurstBits +: BurstBits];

  assign query_count_o = count_q[32'(query_slot_i)*CountBits +: CountBits];
  assign query_valid_o = valid_q[query_slot_i];
  assign age_o = age[32'(age_slot_i)*AgeBits +: AgeBits];

  always_comb begin
    used_o = '0;
    for (int unsigned s = 0; s < Slots; s++) used_o = used_o + (SlotBits + 1)'(valid_q[s]);
  end

  // --- state ---------------------------------------------------------------------------------
  // The slots' next state is a function that the always_ff evaluates, not an always_comb of `_d`
  // signals: it depends on the add port, which is combinational from the BBC's inputs, and
  // logic that depends on a top-level input runs in every eval() of the Verilated model and again
  // after the clock edge (three times a cycle in the testbenches), while an always_ff runs once,
  // at the edge (docs/build.md, "RTL speed"). The same logic and the same flops either way.
  // Per slot s, with n the requests the lanes add to it and sub whether the server takes from it:
  // count' = count + n - (sub ? sub_n : 0); resident' = set or kept, unless cleared; oldest' =
  // now when the count leaves zero (an upper bound on the age of what is queued: the server takes
  // a slot's requests per die, not strictly oldest first, and a starvation bound needs no more);
  // valid' while resident or counting.
  localparam int unsigned NextW = Slots * (2 + CountBits + AgeBits);
  function automatic logic [NextW-1:0] slots_next(
      input logic [Slots-1:0]           valid,
      input logic [Slots-1:0]           resident,
      input logic [Slots*CountBits-1:0] count,
      input logic [Slots*AgeBits-1:0]   oldest,
      input logic [Lanes-1:0]           lane_fire,
      input logic [Lanes*SlotBits-1:0]  slot,
      input logic                       sub_v,
      input logic [SlotBits-1:0]        sub_slot,
      input logic [CountBits-1:0]       sub_cnt,
      input logic                       set_v,
      input logic [SlotBits-1:0]        set_slot,
      input logic                       clr_v,
      input logic [SlotBits-1:0]        clr_slot,
      input logic [AgeBits-1:0]         now);
    logic [Slots-1:0] v_d, r_d;
    logic [Slots*CountBits-1:0] c_d;
    logic [Slots*AgeBits-1:0] o_d;
    logic [CountBits-1:0] n;
    logic sub;
    for (int unsigned s = 0; s < Slots; s++) begin
      n = '0;
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (lane_fire[l] && slot[l*SlotBits +: SlotBits] == SlotBits'(s)) n = n + 1'b1;
      end
      sub = sub_v && sub_slot == SlotBits'(s) && sub_cnt != '0;
      c_d[s*CountBits +: CountBits] = count[s*CountBits +: CountBits] + n - (sub ? sub_cnt : '0);
      r_d[s] = (resident[s] || (set_v && set_slot == SlotBits'(s))) &&
               !(clr_v && clr_slot == SlotBits'(s));
      o_d[s*AgeBits +: AgeBits] =
          (n != '0 && (count[s*CountBits +: CountBits] == '0 ||
                       (sub && count[s*CountBits +: CountBits] == sub_cnt)))
          ? now : oldest[s*AgeBits +: AgeBits];
      v_d[s] = (valid[s] || n != '0) && (r_d[s] || c_d[s*CountBits +: CountBits] != '0);
    end
    slots_next = {v_d, r_d, c_d, o_d};
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      resident_q <= '0;
      now_q      <= '0;
      burst_q    <= '0;
      count_q    <= '0;
      oldest_q   <= '0;
    end else begin
      {valid_q, resident_q, count_q, oldest_q} <= slots_next(
          valid_q, resident_q, count_q, oldest_q, add_fire, add_slot_o, sub_valid_i, sub_slot_i,
          sub_n_i, set_res_i, set_res_slot_i, clr_res_i, clr_res_slot_i, now_q);
      now_q      <= now_q + 1'b1;
      if (alloc) burst_q[32'(free_slot)*BurstBits +: BurstBits] <= new_burst;
    end
  end

  // --- invariants ----------------------------------------------------------------------------
  // the entries the checks need, read out of the flat buses
  logic [CountBits-1:0] sub_count;
  assign sub_count = count_q[32'(sub_slot_i)*CountBits +: CountBits];
  logic take_unready, set_on_free;
  always_comb begin
    take_unready = |(add_valid_i & ~(add_req_i & add_ready_o));
    set_on_free = set_res_i && !valid_q[set_res_slot_i] && !(alloc && free_slot == set_res_slot_i);
  end
  // Checks and coverage points on the add port's effect on the slots are functions called in the
  // property, so they cost nothing between clock edges (a signal would be computed in every
  // eval(), and kept for the trace even where coverage is off).
  function automatic logic [Lanes-1:0] lanes_to(input logic [Lanes-1:0] lane_fire,
                                                input logic [Lanes*SlotBits-1:0] slot,
                                                input logic [SlotBits-1:0] s);
    for (int unsigned k = 0; k < Lanes; k++) begin
      lanes_to[k] = lane_fire[k] && slot[k*SlotBits +: SlotBits] == s;
    end
  endfunction
  // some slot's count plus the lanes adding to it passes the maximum
  function automatic logic adds_wrap(input logic [Slots*CountBits-1:0] count,
                                     input logic [Lanes-1:0] lane_fire,
                                     input logic [Lanes*SlotBits-1:0] slot);
    adds_wrap = 1'b0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      adds_wrap = adds_wrap || (lane_fire[k] &&
          {1'b0, count[32'(slot[k*SlotBits +: SlotBits])*CountBits +: CountBits]} +
          (CountBits + 1)'($countones(lanes_to(lane_fire, slot, slot[k*SlotBits +: SlotBits]))) >
          {1'b0, {CountBits{1'b1}}});
    end
  endfunction
  `FLINT_ASSERT_IMPLY(SubOnlyQueued, sub_valid_i, valid_q[sub_slot_i] && sub_count >= sub_n_i)
  `FLINT_ASSERT(CountNoWrap, !adds_wrap(count_q, add_fire, add_slot_o))
  `FLINT_ASSERT(AddOnlyOfferedReady, !take_unready)
  `FLINT_ASSERT(SetResOnlyUsed, !set_on_free)
  `FLINT_ASSERT_IMPLY(ClrResOnlyResident, clr_res_i, resident_q[clr_res_slot_i])
  `FLINT_ASSERT_IMPLY(PickNotResident, pick_valid_o, !resident_q[pick_slot_o])
  `FLINT_ASSERT_IMPLY(AgeInRange, pick_valid_o, !old_age[AgeBits-1])
  logic free_not_empty;
  always_comb begin
    free_not_empty = 1'b0;
    for (int unsigned s = 0; s < Slots; s++) begin
      free_not_empty = free_not_empty ||
                       (!valid_q[s] && (resident_q[s] || count_q[s*CountBits +: CountBits] != '0));
    end
  end
  `FLINT_ASSERT(FreeSlotsEmpty, !free_not_empty)

  // --- functional coverage (make coverage) ---------------------------------------------------
  // Picks: FCFS among several candidates; most-pending choosing another burst than FCFS would;
  // the age cap overriding most-pending.
  `FLINT_COVER(c_pick_fcfs, pick_valid_o && Policy == 0 && $countones(cand) > 1)
  `FLINT_COVER(c_pick_most_pending, pick_valid_o && Policy != 0 && !capped &&
                                    most_slot != old_slot)
  `FLINT_COVER(c_pick_age_cap, pick_valid_o && Policy != 0 && capped && most_slot != old_slot)
  // Refusals: every slot in use and a lane's burst has none; or a free slot went to another
  // lane's new burst this cycle.
  `FLINT_COVER(c_slots_full, !free_found)
  `FLINT_COVER(c_refuse_full, |(add_req_i & ~add_ready_o) && !free_found)
  `FLINT_COVER(c_refuse_other_new, |(add_req_i & ~add_ready_o) && free_found)
  // Several lanes at once: two hits, one new burst shared by two lanes, a hit beside an
  // allocation.
  `FLINT_COVER(c_lanes_hit, $countones(add_fire & hit) > 1)
  `FLINT_COVER(c_lanes_share_alloc, $countones(add_fire & ~hit) > 1)
  `FLINT_COVER(c_hit_beside_alloc, alloc && |(add_fire & hit))
  // Slot lifetime: adds and a sub of one slot in a cycle, a slot freed (seen the cycle after),
  // residency set in the cycle its slot is allocated.
  `FLINT_COVER(c_add_and_sub,
                sub_valid_i && sub_n_i != '0 && |lanes_to(add_fire, add_slot_o, sub_slot_i))
  `FLINT_COVER(c_slot_freed, |($past(valid_q) & ~valid_q))
  `FLINT_COVER(c_set_res_on_alloc, set_res_i && alloc && free_slot == set_res_slot_i)
endmodule
`default_nettype wire
