// Single-error test of the BCH line decoder (issue #26 item 2; docs/ecc.md, "The single-error
// path"): from the odd syndromes S_1, S_3, .., S_(2T-1) of a received word (flint_bch_syn's
// syn_o), whether they are the syndromes of one bit error, and at which field position.
//
// One error at position X = alpha^pos gives S_j = X^j for every j. The test: S_1 != 0 and
// S_j = S_1^j for j = 3, 5, .., 2T-1; then pos = log S_1 (0 .. 2^M - 2). The powers are not formed
// one after another: each check multiplies a syndrome already checked by a square power of S_1
// (S_1^2, S_1^4, S_1^8, S_1^16: squarings, which are linear, XOR matrices), for example
// S_7 = S_3 * S_1^4 and S_15 = S_7 * S_1^8. If all checks hold, S_j = S_1^j follows for every
// odd j by induction on j, and if some S_j differs from S_1^j the first such j fails its own check;
// so the T-1 checks are exactly the power test, with one multiplier (flint_gf_mul) between a
// syndrome and each comparison.
//
// Why the result is exact for the decoder (docs/ecc.md): Berlekamp-Massey is a function of the
// syndromes alone, and on S_j = X^j it returns L = 1, Lambda = 1 + X x, whose only root in the
// field is position pos. So the full decoder flips bit pos if pos < N, and calls the word
// uncorrectable if pos >= N (the root is outside the shortened code), whatever the word's weight.
// A decoder that uses this test needs no Berlekamp-Massey or Chien search for such a word.
//
// pos_o is log S_1 from flint_bch_pkg::BchLog (a 2^M-entry table, scripts/gen_bch.py); it is
// meaningful only when single_o is high.
//
// Latency 0: combinational (the caller registers the syndromes in front of it).
`default_nettype none
module flint_bch_single #(
  // do not override
  localparam int unsigned M = flint_bch_pkg::BchM,
  localparam int unsigned T = flint_bch_pkg::BchT,
  localparam logic [M:0]  PrimPoly = flint_bch_pkg::BchPrimPoly
) (
  // odd syndromes: S_(2s+1) at syn_i[s*M +: M]
  input  logic [T*M-1:0] syn_i,
  // the syndromes are those of a single error at field position pos_o
  output logic           single_o,
  output logic [M-1:0]   pos_o
);
  // The checks pair j = a + 2^e (a odd, a < 2^e) with S_a * S_1^(2^e); with e up to 4 this covers
  // every odd j up to 31 (T <= 16).
  if (T > 16 || T < 2) begin : g_bad_t
    $error("flint_bch_single: needs 2 <= T <= 16");
  end

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

  logic [M-1:0] s1;
  assign s1 = syn_i[0 +: M];
  // S_1^(2^e), e = 0..4
  logic [M-1:0] s1_p2, s1_p4, s1_p8, s1_p16;
  assign s1_p2 = gf_sq(s1);
  assign s1_p4 = gf_sq(s1_p2);
  assign s1_p8 = gf_sq(s1_p4);
  assign s1_p16 = gf_sq(s1_p8);

  // Check s (s = 1..T-1) is for j = 2s + 1 = a + 2^e, with 2^e the largest power of two below j.
  logic [T-1:1] ok;
  for (genvar s = 1; s < T; s++) begin : g_chk
    localparam int unsigned J = 2 * s + 1;
    localparam int unsigned E = (J >= 16) ? 4 : (J >= 8) ? 3 : (J >= 4) ? 2 : 1;
    localparam int unsigned A = J - (1 << E);  // odd, < J
    logic [M-1:0] prod;
    flint_gf_mul #(.M(M), .PrimPoly(PrimPoly)) u_mul (
      .a_i(syn_i[((A-1)/2)*M +: M]),
      .b_i(E == 4 ? s1_p16 : E == 3 ? s1_p8 : E == 2 ? s1_p4 : s1_p2),
      .p_o(prod)
    );
    assign ok[s] = (prod == syn_i[s*M +: M]);
  end

  assign single_o = (s1 != '0) && (&ok);
  // The log table as an array of entries, read by index: Yosys builds a 2^M-way selection of
  // it (about 12 k generic cells). Read as a part-select of the packed constant at s1 * M
  // instead, it became a shifter over the table's 22 528 bits that synth had not finished
  // after 10 minutes.
  logic [M-1:0] log_rom [1 << M];
  for (genvar a = 0; a < (1 << M); a++) begin : g_log
    assign log_rom[a] = flint_bch_pkg::BchLog[a*M +: M];
  end
  assign pos_o = log_rom[s1];
endmodule
`default_nettype wire
