// Berlekamp-Massey unit of the BCH line decoder's slow path (issue #26 item 2; docs/ecc.md, "The
// BCH decoder's slow path"): from the odd syndromes S_1, S_3, .., S_(2T-1) of a received word
// (flint_bch_syn's syn_o), the error-locator polynomial Lambda(x) and the length L of the
// shortest LFSR that generates S_1 .. S_2T. An error at code position i makes alpha^-i a root
// of Lambda (flint_bch_chien finds them).
//
// Algorithm: the inversionless Berlekamp-Massey iteration (as Sarwate and Shanbhag write it for
// Reed-Solomon decoders: no field inversion, the locator kept up to a nonzero scalar factor) with
// Berlekamp's shortcut for binary BCH codes: because S_2j = S_j^2, the discrepancy of every
// second step is zero, so only the steps r = 0, 2, .., 2T-2 are computed (T iterations) and each
// one does the skipped step's work too (the correction polynomial moves by x^2, not x). Iteration
// k (r = 2k), with gamma the discrepancy the correction polynomial B was saved with:
//   delta   = sum over i of Lambda_i * S_(2k+1-i)          (S_j = 0 for j < 1)
//   Lambda <- gamma * Lambda + delta * x * B
//   if delta != 0 and L <= k:  B <- x * Lambda_old,  L <- 2k + 1 - L,  gamma <- delta
//   else:                      B <- x^2 * B
// starting from Lambda = B = gamma = 1, L = 0. Lambda_0 is the product of the gammas, never zero;
// dividing by it gives the textbook (monic at x^0) locator that model/ecc/bch computes.
// The even syndromes are squares of the odd ones (S_2j = S_j^2), formed here when a word is taken.
//
// Only Lambda_0 .. Lambda_T are kept. L never decreases, so while L <= T every Lambda has degree
// <= T and the truncation is exact; once L > T the word is uncorrectable whatever Lambda is, and
// out_deg_o (L, which is exact in every case) says so.
//
// Timing: each iteration takes two cycles, one for delta (T+1 multipliers and an XOR tree, into
// a register) and one for the update (2T+1 multipliers), so no path has two multipliers in
// series. The T+1 multipliers by Lambda_i serve both cycles (times S_(2k+1-i), then times
// gamma): 2T+1 flint_gf_mul in all. Their second operand comes from a register of its own
// (by_q), loaded for the coming cycle, so the choice between the two is not in the path. A word taken in cycle c is at the output from cycle c + 2T + 1 (23 cycles for T = 11);
// the unit takes the next word in the cycle after its result is taken. in_ready_o is high
// exactly when the unit is idle.
//
// Interfaces: syndromes in (S_(2s+1) at in_syn_i[s*M +: M]); Lambda_j at out_lambda_o[j*M +: M],
// L at out_deg_o. Valid/ready on both sides; the output holds still while out_valid_o && !out_ready_i.
`default_nettype none
`include "flint_assert.svh"
module flint_bch_bm #(
  parameter int unsigned M        = flint_bch_pkg::BchM,
  parameter int unsigned T        = flint_bch_pkg::BchT,
  parameter logic [M:0]  PrimPoly = flint_bch_pkg::BchPrimPoly,
  // do not override
  localparam int unsigned DegW = $clog2(2 * T + 1),
  localparam int unsigned IterW = $clog2(T + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // odd syndromes of one received word
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [T*M-1:0]     in_syn_i,
  // the error locator (up to a nonzero factor) and L
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [(T+1)*M-1:0] out_lambda_o,
  output logic [DegW-1:0]    out_deg_o
);
  typedef enum logic [1:0] {
    StIdle  = 2'd0,
    StDelta = 2'd1,
    StUpd   = 2'd2,
    StDone  = 2'd3
  } state_e;

  // Squaring is linear over GF(2): the square of a is the sum of alpha^(2b) over its set bits b.
  function automatic logic [M-1:0] gf_sq(input logic [M-1:0] a);
    logic [M-1:0] pw;  // alpha^(2b)
    gf_sq = '0;
    pw = M'(1);
    for (int unsigned b = 0; b < M; b++) begin
      if (a[b]) gf_sq = gf_sq ^ pw;
      for (int unsigned n = 0; n < 2; n++) begin
        pw = pw[M-1] ? ((pw << 1) ^ PrimPoly[M-1:0]) : (pw << 1);
      end
    end
  endfunction

  state_e state_q, state_d;
  logic [IterW-1:0] k_q, k_d;
  logic [DegW-1:0] l_q, l_d;
  logic [M-1:0] gamma_q, gamma_d, delta_q, delta_d;
  // Lambda_i and B_i at [i*M +: M]
  logic [(T+1)*M-1:0] lam_q, lam_d, b_q, b_d;
  // win: S_(2k+1-i) at [i*M +: M] (zero for 2k+1-i < 1); queue: the syndromes still to enter
  // the window, S_(2k+2) at [0 +: M], S_(2k+3) next, and so on.
  logic [(T+1)*M-1:0] win_q, win_d;
  logic [(2*T-1)*M-1:0] queue_q, queue_d;

  // All 2T syndromes of the word being taken: S_j at all_syn[(j-1)*M +: M].
  logic [2*T*M-1:0] all_syn;
  always_comb begin
    all_syn = '0;
    for (int unsigned j = 1; j <= 2 * T; j++) begin
      if (j % 2 == 1) begin
        all_syn[(j-1)*M +: M] = in_syn_i[((j-1)/2)*M +: M];
      end else begin
        all_syn[(j-1)*M +: M] = gf_sq(all_syn[(j/2-1)*M +: M]);
      end
    end
  end

  // Lambda_i times by_q's entry i: S_(2k+1-i) in StDelta (delta's terms), gamma in StUpd; and
  // delta * B_(i-1).
  logic [(T+1)*M-1:0] by_q, by_d;
  logic [(T+1)*M-1:0] lam_prod, b_scaled;
  for (genvar i = 0; i <= T; i++) begin : g_mul
    flint_gf_mul #(.M(M), .PrimPoly(PrimPoly)) u_lam (
      .a_i(lam_q[i*M +: M]),
      .b_i(by_q[i*M +: M]),
      .p_o(lam_prod[i*M +: M])
    );
    if (i == 0) begin : g_b0
      assign b_scaled[0 +: M] = '0;  // x * B has no constant term
    end else begin : g_bi
      flint_gf_mul #(.M(M), .PrimPoly(PrimPoly)) u_corr (
        .a_i(b_q[(i-1)*M +: M]),
        .b_i(delta_q),
        .p_o(b_scaled[i*M +: M])
      );
    end
  end
  logic [M-1:0] delta;
  always_comb begin
    delta = '0;
    for (int unsigned i = 0; i <= T; i++) delta = delta ^ lam_prod[i*M +: M];
  end

  // The length change of iteration k (2L <= r with r = 2k).
  logic grow;
  assign grow = (delta_q != '0) && (32'(l_q) <= 32'(k_q));

  always_comb begin
    state_d = state_q;
    k_d = k_q;
    l_d = l_q;
    gamma_d = gamma_q;
    delta_d = delta_q;
    lam_d = lam_q;
    b_d = b_q;
    win_d = win_q;
    queue_d = queue_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          state_d = StDelta;
          k_d = '0;
          l_d = '0;
          gamma_d = M'(1);
          lam_d = '0;
          lam_d[0 +: M] = M'(1);
          b_d = '0;
          b_d[0 +: M] = M'(1);
          win_d = '0;
          win_d[0 +: M] = all_syn[0 +: M];
          queue_d = all_syn[M +: (2*T-1)*M];
        end
      end
      StDelta: begin
        delta_d = delta;
        state_d = StUpd;
      end
      StUpd: begin
        lam_d = lam_prod ^ b_scaled;
        if (grow) begin
          b_d = {lam_q[0 +: T*M], M'(0)};
          l_d = DegW'(2 * 32'(k_q) + 1 - 32'(l_q));
          gamma_d = delta_q;
        end else begin
          b_d = {b_q[0 +: (T-1)*M], (2*M)'(0)};
        end
        // Next window: S_(2k+3-i) = old S_(2k+1-(i-2)); S_(2k+3), S_(2k+2) from the queue.
        win_d = {win_q[0 +: (T-1)*M], queue_q[0 +: M], queue_q[M +: M]};
        queue_d = {(2*M)'(0), queue_q[2*M +: (2*T-3)*M]};
        if (32'(k_q) == T - 1) begin
          state_d = StDone;
        end else begin
          k_d = k_q + IterW'(1);
          state_d = StDelta;
        end
      end
      StDone: begin
        if (out_ready_i) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  // The multipliers' operands for the next cycle: the window for a discrepancy, else gamma.
  assign by_d = (state_d == StDelta) ? win_d : {(T+1){gamma_d}};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
    end else begin
      state_q <= state_d;
    end
  end

  // Datapath registers: no reset (each is loaded when a word is taken, before it is read).
  always_ff @(posedge clk_i) begin
    k_q <= k_d;
    l_q <= l_d;
    gamma_q <= gamma_d;
    delta_q <= delta_d;
    lam_q <= lam_d;
    b_q <= b_d;
    win_q <= win_d;
    by_q <= by_d;
    queue_q <= queue_d;
  end

  assign in_ready_o = (state_q == StIdle);
  assign out_valid_o = (state_q == StDone);
  assign out_lambda_o = lam_q;
  assign out_deg_o = l_q;

`ifndef SYNTHESIS
  // The inversionless form never lets Lambda_0 or gamma become zero.
  `FLINT_ASSERT_IMPLY(a_lambda0_nonzero, out_valid_o, lam_q[0 +: M] != '0)
  `FLINT_ASSERT_IMPLY(a_gamma_nonzero, state_q != StIdle, gamma_q != '0)
  // L only grows, and by at most the step's bound (L <= r + 1 = 2k + 1).
  `FLINT_ASSERT_IMPLY(a_l_bound, state_q != StIdle, 32'(l_q) <= 2 * 32'(k_q) + 1)
  // A locator of length L <= T has no coefficient above x^L (while it is correctable, the kept
  // coefficients are exact).
  for (genvar i = 1; i <= T; i++) begin : g_a_deg
    `FLINT_ASSERT_IMPLY(a_deg_le_l, out_valid_o && 32'(l_q) <= T && i > 32'(l_q),
                        lam_q[i*M +: M] == '0)
  end
  // The result holds still until it is taken.
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && $stable(out_lambda_o) && $stable(out_deg_o))
`endif
endmodule
`default_nettype wire
