// Multi-path BCH line decoder (issue #26 items 2 and 4; docs/ecc.md, "The line decoder at line
// rate"): received codewords of the NAND-grade line code in, one a cycle; decoded lines out in
// the order they came, one a cycle, with the status and bits flipped of model::BchCode::Decode.
//
// Three paths, chosen from the syndromes:
//   clean   all syndromes zero: the data as read, StatusOk;
//   single  the syndromes of one error (flint_bch_single): bit pos flipped, StatusCorrected with
//           one bit, or StatusUncorrectable when pos is outside the shortened code (pos >= N);
//   slow    anything else: one of Units slow-path units (flint_bch_bm, then flint_bch_chien at
//           P positions a cycle) finds the error locator and its roots.
// The first two take a line a cycle; a unit's Berlekamp-Massey and Chien search work on two
// lines at once (the next line enters Berlekamp-Massey once the previous one moves on).
//
// In-order completion: every accepted line takes a slot of a Depth-entry buffer (a ring, slots
// allocated in arrival order) and gives it back when its response leaves. Responses leave from
// the oldest slot only, when its line is done, so a clean line behind a slow one waits in order.
// A slow line's syndromes and slot number go into a queue (as deep as the buffer, so it never
// overflows); the unit that takes one writes the corrected data into that slot when its search
// ends. Nothing is dropped: in_ready_o is low only when all Depth slots are taken.
//
// Timing (cycle c: a line is taken; documented rules, modelled by model/ecc/bch_line_timing):
//   c      the syndromes (flint_bch_syn) on in_code_i; the line and its syndromes registered;
//   c+1    the class (flint_bch_single on the registered syndromes); a clean or single line
//          written into its slot, done; a slow line written, not done, and queued;
//   c+2    a clean or single line's response can be valid (if its slot is the oldest);
//          a queued slow line can go to a unit (first the lowest-numbered unit whose
//          Berlekamp-Massey and Chien search are both idle, else the lowest whose
//          Berlekamp-Massey is idle; one line a cycle, oldest first);
//   d      (taken by a unit) Berlekamp-Massey until d + 2T + 1, then the unit's Chien search as
//          soon as it is idle, at e; its result at f = e + ceil(N/P) + 2 (e + 1 when L > T),
//          written into the slot; the response can be valid from f + 1.
// At least 2 cycles clean or single, 2 + 2T+1 + ceil(N/P)+2 + 1 = 172 slow at P = 8.
// A response is valid from the cycle its slot is the oldest and done; the next response can be
// valid the cycle after one leaves. A slot freed by a leaving response takes a line from the
// next cycle on (in_ready_o is a register decode: no path from out_ready_i).
//
// The syndrome unit's XOR trees sit between in_code_i and the registers, as in flint_bch_dec;
// the single-error test (10 multipliers, the 2^11-entry log table) and the slot write are in
// the next cycle.
`default_nettype none
`include "flint_assert.svh"
module flint_bch_line_dec #(
  parameter int unsigned Units = 3,   // slow-path units
  parameter int unsigned P     = 32,  // Chien positions a cycle in each unit
  parameter int unsigned Depth = 64,  // in-order buffer slots (lines in the decoder)
  // do not override
  localparam int unsigned M     = flint_bch_pkg::BchM,
  localparam int unsigned T     = flint_bch_pkg::BchT,
  localparam int unsigned K     = flint_bch_pkg::BchK,
  localparam int unsigned R     = flint_bch_pkg::BchR,
  localparam int unsigned N     = K + R,
  localparam int unsigned DegW  = $clog2(2 * T + 1),
  localparam int unsigned CntW  = $clog2(N + 1),
  localparam int unsigned NerrW = $clog2(T + 1),
  localparam int unsigned TagW  = $clog2(Depth),
  localparam int unsigned OccW  = $clog2(Depth + 1),
  localparam int unsigned UnitW = (Units > 1) ? $clog2(Units) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // received codewords: {data, parity}, code bit i at in_code_i[i]
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [N-1:0]        in_code_i,
  // decoded lines, in arrival order: data, status, bits flipped (StatusCorrected only, else 0)
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [K-1:0]        out_data_o,
  output flint_pkg::status_e  out_status_o,
  output logic [NerrW-1:0]    out_nerr_o
);
  if (Units < 1 || Depth < 2) begin : g_bad_param
    $error("flint_bch_line_dec: needs Units >= 1 and Depth >= 2");
  end

  function automatic logic [TagW-1:0] next_tag(input logic [TagW-1:0] tag);
    next_tag = (32'(tag) == Depth - 1) ? '0 : tag + TagW'(1);
  endfunction

  // ---- Buffer occupancy and the ring's pointers ---------------------------------------------
  logic [OccW-1:0] occ_q, occ_d;
  logic [TagW-1:0] tail_q, head_q;  // next slot to allocate; oldest slot
  logic take, pop;
  assign in_ready_o = (32'(occ_q) < Depth);
  assign take = in_valid_i && in_ready_o;

  // ---- Cycle c: syndromes, into the classification register ---------------------------------
  logic [T*M-1:0] syn;
  logic syn_zero;
  flint_bch_syn u_syn (
    .code_i(in_code_i),
    .syn_o (syn),
    .zero_o(syn_zero)
  );

  logic cl_valid_q;
  logic [K-1:0] cl_data_q;
  logic [T*M-1:0] cl_syn_q;
  logic cl_zero_q;
  logic [TagW-1:0] cl_tag_q;

  // ---- Cycle c+1: the class ------------------------------------------------------------------
  logic single;
  logic [M-1:0] pos;
  flint_bch_single u_single (
    .syn_i   (cl_syn_q),
    .single_o(single),
    .pos_o   (pos)
  );
  logic pos_in_code, pos_in_data;
  assign pos_in_code = (32'(pos) < N);
  assign pos_in_data = (32'(pos) >= R) && pos_in_code;
  logic [K-1:0] flip;
  assign flip = pos_in_data ? (K'(1) << (32'(pos) - R)) : '0;

  // What the classification writes into the line's slot.
  logic cl_write, cl_slow;
  logic [K-1:0] cl_wdata;
  logic [NerrW-1:0] cl_wnerr;
  logic cl_wunc;
  assign cl_write = cl_valid_q;
  assign cl_slow = cl_valid_q && !cl_zero_q && !single;
  always_comb begin
    cl_wdata = cl_data_q;
    cl_wnerr = '0;
    cl_wunc = 1'b0;
    if (!cl_zero_q && single) begin
      if (pos_in_code) begin
        cl_wdata = cl_data_q ^ flip;
        cl_wnerr = NerrW'(1);
      end else begin
        cl_wunc = 1'b1;
      end
    end
  end

  // ---- The slow lines' queue: syndromes and slot ---------------------------------------------
  logic [T*M-1:0] q_syn_q [Depth];
  logic [TagW-1:0] q_tag_q [Depth];
  logic [TagW-1:0] q_head_q, q_tail_q;
  logic [OccW-1:0] q_cnt_q;
  logic q_pop;

  // ---- Slow-path units -----------------------------------------------------------------------
  logic [Units-1:0] bm_in_valid, bm_in_ready, bm_out_valid, ch_in_ready, ch_out_valid, ch_uncorr;
  logic [Units*(T+1)*M-1:0] bm_lambda;
  logic [Units*DegW-1:0] bm_deg;
  logic [Units*N-1:0] ch_mask;
  logic [Units*CntW-1:0] ch_count;
  logic [TagW-1:0] bm_tag_q [Units];  // the slot of the line in unit u's Berlekamp-Massey
  logic [TagW-1:0] ch_tag_q [Units];  // and in its Chien search

  // Dispatch: the oldest queued line to the lowest unit that is wholly idle, else to the lowest
  // whose Berlekamp-Massey is idle. bm_in_valid follows bm_in_ready (an exception to "valid
  // never depends on ready", inside this module only: the units' in_ready_o are state decodes,
  // so no loop closes).
  logic [UnitW-1:0] sel;
  logic sel_any, sel_pref;
  always_comb begin
    sel = '0;
    sel_any = 1'b0;
    sel_pref = 1'b0;
    for (int unsigned u = 0; u < Units; u++) begin
      if (bm_in_ready[u] && ch_in_ready[u] && !sel_pref) begin
        sel = UnitW'(u);
        sel_pref = 1'b1;
      end
    end
    for (int unsigned u = 0; u < Units; u++) begin
      if (bm_in_ready[u] && !sel_any) begin
        if (!sel_pref) sel = UnitW'(u);
        sel_any = 1'b1;
      end
    end
  end
  assign q_pop = (q_cnt_q != '0) && sel_any;
  always_comb begin
    bm_in_valid = '0;
    if (q_pop) bm_in_valid[sel] = 1'b1;
  end

  for (genvar u = 0; u < Units; u++) begin : g_unit
    flint_bch_bm u_bm (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .in_valid_i  (bm_in_valid[u]),
      .in_ready_o  (bm_in_ready[u]),
      .in_syn_i    (q_syn_q[q_head_q]),
      .out_valid_o (bm_out_valid[u]),
      .out_ready_i (ch_in_ready[u]),
      .out_lambda_o(bm_lambda[u*(T+1)*M +: (T+1)*M]),
      .out_deg_o   (bm_deg[u*DegW +: DegW])
    );
    // The search's result is written into the slot in the cycle it is valid.
    flint_bch_chien #(.P(P)) u_chien (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .in_valid_i  (bm_out_valid[u]),
      .in_ready_o  (ch_in_ready[u]),
      .in_lambda_i (bm_lambda[u*(T+1)*M +: (T+1)*M]),
      .in_deg_i    (bm_deg[u*DegW +: DegW]),
      .out_valid_o (ch_out_valid[u]),
      .out_ready_i (1'b1),
      .out_mask_o  (ch_mask[u*N +: N]),
      .out_count_o (ch_count[u*CntW +: CntW]),
      .out_uncorr_o(ch_uncorr[u])
    );
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned u = 0; u < Units; u++) begin
      if (bm_in_valid[u]) bm_tag_q[u] <= q_tag_q[q_head_q];
      if (bm_out_valid[u] && ch_in_ready[u]) ch_tag_q[u] <= bm_tag_q[u];
    end
  end

  // ---- The buffer's slots --------------------------------------------------------------------
  // The slots' data and counts are a memory with 1 + Units write ports, each writing one slot a
  // cycle: the classification its newest line's, each unit the slot of the line its search
  // finished (a different slot each: a_cl_slot, a_unit_slot). Written so, a write touches one
  // word: Yosys keeps a memory ($mem) instead of Depth x K multiplexers, and Verilator writes one
  // word instead of copying every slot each cycle (an always_comb over all Depth slots cost
  // Yosys about 2 minutes to elaborate and the Verilated model a copy of 64 kbit a cycle).
  // The done and uncorrectable bits stay flops: the head reads them every cycle.
  logic [K-1:0] data_q [Depth];
  logic [NerrW-1:0] nerr_q [Depth];
  logic [Depth-1:0] unc_q, unc_d, done_q, done_d;
  always_comb begin
    unc_d = unc_q;
    done_d = done_q;
    if (pop) done_d[head_q] = 1'b0;
    // Later writes win, as in the memory below (never the same slot: asserted).
    if (cl_write) begin
      unc_d[cl_tag_q] = cl_wunc;
      done_d[cl_tag_q] = !cl_slow;
    end
    for (int unsigned u = 0; u < Units; u++) begin
      if (ch_out_valid[u]) begin
        done_d[ch_tag_q[u]] = 1'b1;
        unc_d[ch_tag_q[u]] = ch_uncorr[u];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (cl_write) begin
      data_q[cl_tag_q] <= cl_wdata;
      nerr_q[cl_tag_q] <= cl_wnerr;
    end
    for (int unsigned u = 0; u < Units; u++) begin
      if (ch_out_valid[u]) begin
        if (ch_uncorr[u]) begin
          nerr_q[ch_tag_q[u]] <= '0;
        end else begin
          data_q[ch_tag_q[u]] <= data_q[ch_tag_q[u]] ^ ch_mask[u*N + R +: K];
          nerr_q[ch_tag_q[u]] <= NerrW'(ch_count[u*CntW +: CntW]);
        end
      end
    end
  end

  // ---- The head --------------------------------------------------------------------------------
  assign out_valid_o = done_q[head_q];
  assign pop = out_valid_o && out_ready_i;
  assign out_data_o = data_q[head_q];
  assign out_nerr_o = nerr_q[head_q];
  always_comb begin
    if (unc_q[head_q]) begin
      out_status_o = flint_pkg::StatusUncorrectable;
    end else if (nerr_q[head_q] != '0) begin
      out_status_o = flint_pkg::StatusCorrected;
    end else begin
      out_status_o = flint_pkg::StatusOk;
    end
  end

  assign occ_d = occ_q + OccW'(take) - OccW'(pop);

  // ---- Registers -----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      occ_q <= '0;
      tail_q <= '0;
      head_q <= '0;
      cl_valid_q <= 1'b0;
      q_head_q <= '0;
      q_tail_q <= '0;
      q_cnt_q <= '0;
      done_q <= '0;
    end else begin
      occ_q <= occ_d;
      if (take) tail_q <= next_tag(tail_q);
      if (pop) head_q <= next_tag(head_q);
      cl_valid_q <= take;
      if (cl_slow) q_tail_q <= next_tag(q_tail_q);
      if (q_pop) q_head_q <= next_tag(q_head_q);
      q_cnt_q <= q_cnt_q + OccW'(cl_slow) - OccW'(q_pop);
      done_q <= done_d;
    end
  end

  // Datapath registers and storage: no reset (written before they are read).
  always_ff @(posedge clk_i) begin
    if (take) begin
      cl_data_q <= in_code_i[R +: K];
      cl_syn_q <= syn;
      cl_zero_q <= syn_zero;
      cl_tag_q <= tail_q;
    end
    if (cl_slow) begin
      q_syn_q[q_tail_q] <= cl_syn_q;
      q_tag_q[q_tail_q] <= cl_tag_q;
    end
    unc_q <= unc_d;
  end

  logic unused_ch;
  assign unused_ch = ^{ch_mask, ch_count};

`ifdef FLINT_CHECKS
  // Shadow bookkeeping: the arrival number of each slot's line, and how many responses left.
  logic [31:0] seq_in_q, seq_out_q;
  logic [31:0] seq_q [Depth];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seq_in_q <= '0;
      seq_out_q <= '0;
    end else begin
      if (take) seq_in_q <= seq_in_q + 1;
      if (pop) seq_out_q <= seq_out_q + 1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (take) seq_q[tail_q] <= seq_in_q;
  end
  // Slot i is taken when it lies within occ_q of the head, going round the ring.
  function automatic logic in_window(input logic [TagW-1:0] tag, input logic [TagW-1:0] head,
                                     input logic [OccW-1:0] occ);
    in_window = (((32'(tag) + Depth - 32'(head)) % Depth) < 32'(occ));
  endfunction
  logic [31:0] head_seq;
  assign head_seq = seq_q[head_q];
  logic cl_slot_ok;
  assign cl_slot_ok = in_window(cl_tag_q, head_q, occ_q) && !done_q[cl_tag_q];
  logic [Units-1:0] wb_ok;
  always_comb begin
    for (int unsigned u = 0; u < Units; u++) begin
      wb_ok[u] = !ch_out_valid[u]
                 || (in_window(ch_tag_q[u], head_q, occ_q) && !done_q[ch_tag_q[u]]);
    end
  end
`endif

`ifndef SYNTHESIS
  // Occupancy: never more lines than slots; the ring's pointers agree with the count; the queue
  // of slow lines never holds more than the buffer.
  `FLINT_ASSERT(a_occ_bound, 32'(occ_q) <= Depth)
  `FLINT_ASSERT(a_ring, ((32'(tail_q) + Depth - 32'(head_q)) % Depth) == (32'(occ_q) % Depth))
  `FLINT_ASSERT(a_queue_bound, q_cnt_q <= occ_q)
  // Order and one response per line: the response leaving is the oldest line's, every line
  // leaves once (seq_out counts them), and no slot is written done twice.
  `FLINT_ASSERT_IMPLY(a_order, out_valid_o, head_seq == seq_out_q)
  `FLINT_ASSERT_IMPLY(a_out_taken, out_valid_o, occ_q != '0)
  `FLINT_ASSERT(a_count, seq_in_q - seq_out_q == 32'(occ_q))
  `FLINT_ASSERT_IMPLY(a_cl_slot, cl_write, cl_slot_ok)
  `FLINT_ASSERT(a_unit_slot, &wb_ok)
  // A dispatched line finds its Berlekamp-Massey idle.
  `FLINT_ASSERT(a_dispatch, (bm_in_valid & ~bm_in_ready) == '0)
  // The response holds still until it is taken.
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && $stable(out_data_o) && $stable(out_status_o)
                      && $stable(out_nerr_o))
  `FLINT_ASSERT_IMPLY(a_nerr_range, out_valid_o && out_status_o == flint_pkg::StatusCorrected,
                      out_nerr_o != '0 && 32'(out_nerr_o) <= T)
  // Covers: the buffer full, every unit busy, two searches ending in one cycle, a single-error
  // syndrome outside the shortened code.
  `FLINT_COVER(c_full, !in_ready_o)
  `FLINT_COVER(c_units_busy, bm_in_ready == '0)
  `FLINT_COVER(c_two_done, $countones(ch_out_valid) > 1)
  `FLINT_COVER(c_single_outside, cl_write && !cl_zero_q && single && !pos_in_code)
`endif
endmodule
`default_nettype wire
