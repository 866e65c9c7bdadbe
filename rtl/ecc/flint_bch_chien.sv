// Chien search of the BCH line decoder's slow path (issue #26 item 2; docs/ecc.md, "The BCH
// decoder's slow path"): the roots of the error locator Lambda(x) (from flint_bch_bm) among the
// N positions of the shortened code. Code position i is in error iff Lambda(alpha^-i) = 0.
//
// P positions a cycle. Register j (j = 1..T) holds Lambda_j * alpha^(-j*i0) for the first
// position i0 of the cycle; position i0 + p is a root iff
//   Lambda_0 + sum over j of reg_j * alpha^(-j*p) = 0,
// constant multiplications only (XOR matrices, folded by the tools from gf_mul_const below), and
// every register moves on by alpha^(-j*P) a cycle. Positions at or past N (the last cycle's
// tail) are never roots.
//
// Output: a flip mask (out_mask_o[i] set iff position i is a root; a shift register that takes
// P bits a cycle, so no position-indexed write), the number of roots found, and out_uncorr_o,
// set when the locator's degree in_deg_i (flint_bch_bm's L) is above T or differs from the
// number of roots in [0, N): repeated roots, roots outside the shortened length, or a locator
// whose true degree is below L all end there, as in model/ecc/bch. The mask holds the roots found
// in every case; a decoder applies it only when out_uncorr_o is low.
//
// Timing: a locator taken in cycle c is searched in cycles c+1 .. c+ceil(N/P) (no early stop: the
// latency is the same for every line). The P root bits of a cycle are registered before they
// are counted and shifted into the mask (one more cycle), which keeps the root test and the
// count's adder out of one path (at P = 8 together they took 1.5 ns in the 45 nm-class
// estimate). The result is at the output from cycle c + ceil(N/P) + 2: 146 cycles for
// N = 1145, P = 8; 74 for P = 16. A locator with
// in_deg_i > T is not searched: its result (uncorrectable, no roots) follows in cycle c + 1.
// in_ready_o is high exactly when the unit is idle. Valid/ready on both sides; the output holds
// still while out_valid_o && !out_ready_i.
`default_nettype none
`include "flint_assert.svh"
module flint_bch_chien #(
  parameter int unsigned M        = flint_bch_pkg::BchM,
  parameter int unsigned T        = flint_bch_pkg::BchT,
  parameter int unsigned N        = flint_bch_pkg::BchN,
  parameter logic [M:0]  PrimPoly = flint_bch_pkg::BchPrimPoly,
  // positions tested a cycle
  parameter int unsigned P        = 8,
  // do not override
  localparam int unsigned DegW   = $clog2(2 * T + 1),
  localparam int unsigned CntW   = $clog2(N + 1),
  localparam int unsigned Cycles = (N + P - 1) / P,
  localparam int unsigned CycW   = $clog2(Cycles + 1),
  localparam int unsigned Order  = (1 << M) - 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the error locator: Lambda_j at in_lambda_i[j*M +: M], its degree L
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [(T+1)*M-1:0] in_lambda_i,
  input  logic [DegW-1:0]    in_deg_i,
  // the roots: a flip mask over the code positions, their number, the verdict
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [N-1:0]       out_mask_o,
  output logic [CntW-1:0]    out_count_o,
  output logic               out_uncorr_o
);
  if (P < 1 || P > N || N > Order) begin : g_bad_param
    $error("flint_bch_chien: need 1 <= P <= N <= 2^M - 1");
  end

  typedef enum logic [1:0] {
    StIdle   = 2'd0,
    StSearch = 2'd1,
    StDone   = 2'd2
  } state_e;

  // a * b in GF(2^M); with a constant b the tools reduce it to an XOR matrix.
  function automatic logic [M-1:0] gf_mul_const(input logic [M-1:0] a, input logic [M-1:0] b);
    logic [M-1:0] sh;
    gf_mul_const = '0;
    sh = a;
    for (int unsigned i = 0; i < M; i++) begin
      if (b[i]) gf_mul_const = gf_mul_const ^ sh;
      sh = sh[M-1] ? ((sh << 1) ^ PrimPoly[M-1:0]) : (sh << 1);
    end
  endfunction

  // alpha^e (square and multiply over the bits of e), for the constants; e < Order < 2^M.
  function automatic logic [M-1:0] gf_pow(input int unsigned e);
    logic [M-1:0] base;
    gf_pow = M'(1);
    base = M'(2);
    for (int unsigned i = 0; i < M; i++) begin
      if ((e >> i) % 2 == 1) gf_pow = gf_mul_const(gf_pow, base);
      base = gf_mul_const(base, base);
    end
  endfunction

  // Every constant at once: alpha^(-j*p) for p = 0..P and j = 1..T, at [(p*T + j-1)*M +: M]
  // (p = P is the step of a cycle), each the previous p's times alpha^-j: (P + 1) * T products
  // in all. Yosys evaluates constant functions slowly; one alpha^(-j*p) per constant by its own
  // gf_pow, over 32 bits of the exponent, took 37 of make lint's 40 s elaborating this module at
  // P = 32; so the whole module takes about 5 s).
  localparam int unsigned CoefW = (P + 1) * T * M;
  function automatic logic [CoefW-1:0] coef_table();
    logic [M-1:0] step, cur;
    coef_table = '0;
    for (int unsigned j = 1; j <= T; j++) begin
      step = gf_pow(Order - (j % Order));  // alpha^-j
      cur = M'(1);
      for (int unsigned p = 0; p <= P; p++) begin
        coef_table[(p * T + j - 1) * M +: M] = cur;
        cur = gf_mul_const(cur, step);
      end
    end
  endfunction
  localparam logic [CoefW-1:0] Coefs = coef_table();

  state_e state_q, state_d;
  logic [CycW-1:0] cyc_q, cyc_d;  // 0 .. Cycles: the group tested, and the one counted (- 1)
  logic [P-1:0] root_q, root_d;    // the previous cycle's root bits
  logic [CntW-1:0] count_q, count_d;
  logic [DegW-1:0] deg_q, deg_d;
  logic [M-1:0] lam0_q, lam0_d;
  logic [T*M-1:0] reg_q, reg_d;  // reg_j at [(j-1)*M +: M]
  // Mask bits as they arrive: position i0 + p enters at the top, Cycles * P bits in all.
  logic [Cycles*P-1:0] mask_q, mask_d;

  // The P positions of this cycle, and the registers' next values.
  logic [P-1:0] root;
  logic [T*M-1:0] reg_step;
  for (genvar p = 0; p < P; p++) begin : g_pos
    // term j: reg_j * alpha^(-j*p)
    logic [T*M-1:0] term;
    for (genvar j = 1; j <= T; j++) begin : g_term
      localparam logic [M-1:0] Coef = Coefs[(p * T + j - 1) * M +: M];  // alpha^(-j*p)
      assign term[(j-1)*M +: M] = gf_mul_const(reg_q[(j-1)*M +: M], Coef);
    end
    logic [M-1:0] sum;
    always_comb begin
      sum = lam0_q;
      for (int unsigned j = 0; j < T; j++) sum = sum ^ term[j*M +: M];
    end
    assign root[p] = (sum == '0) && (32'(cyc_q) * P + p < N);
  end
  for (genvar j = 1; j <= T; j++) begin : g_step
    localparam logic [M-1:0] Coef = Coefs[(P * T + j - 1) * M +: M];  // alpha^(-j*P)
    assign reg_step[(j-1)*M +: M] = gf_mul_const(reg_q[(j-1)*M +: M], Coef);
  end

  // The mask moved down by P with the previous cycle's roots on top.
  logic [Cycles*P-1:0] mask_shift;
  if (Cycles == 1) begin : g_mask_one
    assign mask_shift = root_q;
  end else begin : g_mask_shift
    assign mask_shift = {root_q, mask_q[P +: (Cycles-1)*P]};
  end

  always_comb begin
    state_d = state_q;
    cyc_d = cyc_q;
    root_d = root_q;
    count_d = count_q;
    deg_d = deg_q;
    lam0_d = lam0_q;
    reg_d = reg_q;
    mask_d = mask_q;
    unique case (state_q)
      StIdle: begin
        if (in_valid_i) begin
          cyc_d = '0;
          count_d = '0;
          deg_d = in_deg_i;
          lam0_d = in_lambda_i[0 +: M];
          reg_d = in_lambda_i[M +: T*M];
          mask_d = '0;
          root_d = '0;
          state_d = (32'(in_deg_i) > T) ? StDone : StSearch;
        end
      end
      StSearch: begin
        // Group cyc_q is tested (none when cyc_q = Cycles: root is all zero past N), group
        // cyc_q - 1 counted.
        reg_d = reg_step;
        root_d = root;
        if (cyc_q != '0) begin
          count_d = count_q + CntW'($countones(root_q));
          mask_d = mask_shift;
        end
        cyc_d = cyc_q + CycW'(1);
        if (32'(cyc_q) == Cycles) state_d = StDone;
      end
      StDone: begin
        if (out_ready_i) state_d = StIdle;
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
    end else begin
      state_q <= state_d;
    end
  end

  // Datapath registers: no reset (loaded when a locator is taken, before they are read).
  always_ff @(posedge clk_i) begin
    cyc_q <= cyc_d;
    root_q <= root_d;
    count_q <= count_d;
    deg_q <= deg_d;
    lam0_q <= lam0_d;
    reg_q <= reg_d;
    mask_q <= mask_d;
  end

  assign in_ready_o = (state_q == StIdle);
  assign out_valid_o = (state_q == StDone);
  assign out_mask_o = mask_q[N-1:0];
  assign out_count_o = count_q;
  assign out_uncorr_o = (32'(deg_q) > T) || (32'(count_q) != 32'(deg_q));

  if (Cycles * P > N) begin : g_unused_tail
    logic unused_tail;
    assign unused_tail = ^mask_q[Cycles*P-1:N];
  end

`ifndef SYNTHESIS
  // Positions past N are never roots, and the mask agrees with the count.
  `FLINT_ASSERT_IMPLY(a_mask_count, out_valid_o,
                      32'($countones(mask_q)) == 32'(count_q))
  // A correctable verdict: as many roots as the degree, at most T of them.
  `FLINT_ASSERT_IMPLY(a_corr_deg, out_valid_o && !out_uncorr_o,
                      32'(deg_q) <= T && 32'(count_q) == 32'(deg_q))
  // The result holds still until it is taken.
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && $stable(out_mask_o) && $stable(out_count_o)
                      && $stable(out_uncorr_o))
`endif
endmodule
`default_nettype wire
