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
  logic [Slots-1:0]     valid_q, resident_q, valid_d, resident_d;
  // Per-slot fields as flat buses (slot s at [s*W +: W]): Yosys keeps them as plain flops.
  logic [Slots*BurstBits-1:0] burst_q, burst_d;
  logic [Slots*CountBits-1:0] count_q, count_d;
  logic [Slots*AgeBits-1:0]   oldest_q, oldest_d;
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
  logic [Slots-1:0] add_s;
  logic [Slots*CountBits-1:0] add_n;  // requests added to each slot this cycle
  logic [Slots-1:0] sub_s;
  always_comb begin
    for (int unsigned s = 0; s < Slots; s++) begin
      add_n[s*CountBits +: CountBits] = '0;
      for (int unsigned l = 0; l < Lanes; l++) begin
        if (add_fire[l] && add_slot_o[l*SlotBits +: SlotBits] == SlotBits'(s))
          add_n[s*CountBits +: CountBits] = add_n[s*CountBits +: CountBits] + 1'b1;
      end
      add_s[s] = add_n[s*CountBits +: CountBits] != '0;
      sub_s[s] = sub_valid_i && sub_slot_i == SlotBits'(s) && sub_n_i != '0;
      count_d[s*CountBits +: CountBits] = count_q[s*CountBits +: CountBits] +
          add_n[s*CountBits +: CountBits] - (sub_s[s] ? sub_n_i : '0);
      resident_d[s] = (resident_q[s] || (set_res_i && set_res_slot_i == SlotBits'(s))) &&
                      !(clr_res_i && clr_res_slot_i == SlotBits'(s));
      burst_d[s*BurstBits +: BurstBits] =
          (alloc && free_slot == SlotBits'(s)) ? new_burst : burst_q[s*BurstBits +: BurstBits];
      // The oldest request's cycle: set when the count leaves zero, kept until it returns to
      // zero. The server takes a slot's requests per die, not strictly oldest first, so this is
      // an upper bound on the age of what is queued, which is what a starvation bound needs.
      oldest_d[s*AgeBits +: AgeBits] =
          (add_s[s] && (count_q[s*CountBits +: CountBits] == '0 ||
                        (sub_s[s] && count_q[s*CountBits +: CountBits] == sub_n_i)))
          ? now_q : oldest_q[s*AgeBits +: AgeBits];
      valid_d[s] = (valid_q[s] || add_s[s]) &&
                   (resident_d[s] || count_d[s*CountBits +: CountBits] != '0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      resident_q <= '0;
      now_q      <= '0;
      burst_q    <= '0;
      count_q    <= '0;
      oldest_q   <= '0;
    end else begin
      valid_q    <= valid_d;
      resident_q <= resident_d;
      now_q      <= now_q + 1'b1;
      burst_q    <= burst_d;
      count_q    <= count_d;
      oldest_q   <= oldest_d;
    end
  end

  // --- invariants ----------------------------------------------------------------------------
  // the entries the checks need, read out of the flat buses
  logic [CountBits-1:0] sub_count;
  assign sub_count = count_q[32'(sub_slot_i)*CountBits +: CountBits];
  logic count_wraps, take_unready, set_on_free;
  always_comb begin
    count_wraps = 1'b0;
    for (int unsigned s = 0; s < Slots; s++) begin
      count_wraps = count_wraps ||
                    ({1'b0, count_q[s*CountBits +: CountBits]} +
                     {1'b0, add_n[s*CountBits +: CountBits]} > {1'b0, {CountBits{1'b1}}});
    end
    take_unready = |(add_valid_i & ~(add_req_i & add_ready_o));
    set_on_free = set_res_i && !valid_q[set_res_slot_i] && !(alloc && free_slot == set_res_slot_i);
  end
  `FLINT_ASSERT_IMPLY(SubOnlyQueued, sub_valid_i, valid_q[sub_slot_i] && sub_count >= sub_n_i)
  `FLINT_ASSERT(CountNoWrap, !count_wraps)
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
  // Slot lifetime: adds and a sub of one slot in a cycle, a slot freed, residency set in the
  // cycle its slot is allocated.
  `FLINT_COVER(c_add_and_sub, |(add_s & sub_s))
  `FLINT_COVER(c_slot_freed, |(valid_q & ~valid_d))
  `FLINT_COVER(c_set_res_on_alloc, set_res_i && alloc && free_slot == set_res_slot_i)
endmodule
`default_nettype wire
