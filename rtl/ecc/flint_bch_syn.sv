// BCH syndrome unit, the decoder's fast path (issue #26 item 2; docs/ecc.md, "The BCH engine in
// RTL"): the odd syndromes S_1, S_3, .., S_(2T-1) of a received codeword of the NAND-grade line
// code (binary BCH over GF(2^11), t = 11, shortened to 1024 data bits: 1145 code bits), and
// zero_o when all of them are zero. A binary code's even syndromes are squares of these
// (S_2j = S_j^2), so every syndrome is zero iff the odd ones are: zero_o marks a clean line that
// needs no correction, and the rest of the decoder (flint_bch_bm, flint_bch_chien, put together
// in flint_bch_dec) sees only lines with zero_o low.
//
// Code bit i is the coefficient of x^i (parity at [0, R), data bit j at R + j), as in the C++
// model model/ecc/bch. S_j = c(alpha^j) in the polynomial basis of GF(2^M) (bit b = coefficient
// of alpha^b, primitive polynomial flint_bch_pkg::BchPrimPoly). Linear in the code bits: bit b of
// S_(2s+1) is the XOR of the code bits marked in row s*M + b of flint_bch_pkg::BchSynRows, which
// scripts/gen_bch.py computes at configure time (alpha^(i(2s+1)) for each code bit i). About
// 570 code bits a row: about 10 XOR2 levels, then a 121-input OR (7 OR2 levels) to zero_o.
//
// Latency 0: combinational, with no valid/ready, for the reasons flint_bch_enc gives; the fast
// path is meant to sit beside the data in the response cycle, and its consumer (the line
// pipeline, or the slow-path unit taking S with the line) registers what it keeps.
//
// Parameters: the code's M, T, K; any other code than the package's stops elaboration.
`default_nettype none
module flint_bch_syn #(
  parameter int unsigned M = flint_bch_pkg::BchM,
  parameter int unsigned T = flint_bch_pkg::BchT,
  parameter int unsigned K = flint_bch_pkg::BchK,
  // do not override
  localparam int unsigned R = flint_bch_pkg::BchR,
  localparam int unsigned N = K + R
) (
  // the received codeword: {data, parity}, code bit i at code_i[i]
  input  logic [N-1:0]   code_i,
  // S_(2s+1) at syn_o[s*M +: M], s = 0 .. T-1
  output logic [T*M-1:0] syn_o,
  // every syndrome zero: the line is a codeword (no error, or more than 2T: undetectable)
  output logic           zero_o
);
  if (M != flint_bch_pkg::BchM || T != flint_bch_pkg::BchT || K != flint_bch_pkg::BchK)
  begin : g_bad_code
    $error("flint_bch_syn: M, T, K differ from the code flint_bch_pkg was generated for");
  end

  for (genvar b = 0; b < T * M; b++) begin : g_syn
    assign syn_o[b] = ^(code_i & flint_bch_pkg::BchSynRows[b*N +: N]);
  end
  assign zero_o = ~|syn_o;
endmodule
`default_nettype wire
