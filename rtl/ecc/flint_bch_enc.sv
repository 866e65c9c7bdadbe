// BCH line encoder (issue #26 item 2; docs/ecc.md, "The BCH engine in RTL"): the 121 parity
// bits of a 128 B line under the NAND-grade line code, binary BCH over GF(2^11) with t = 11,
// shortened to 1024 data bits. Systematic: the codeword is {data_i, parity_o} (code bit i is
// the coefficient of x^i: parity at [0, R), data bit j at code bit R + j), as in the C++ model
// model/ecc/bch.
//
// The parity is linear in the data: parity bit i is the XOR of the data bits marked in row i of
// flint_bch_pkg::BchEncRows, a matrix scripts/gen_bch.py computes at configure time from GF(2^m)
// arithmetic (x^(R+j) mod g(x) for each data bit j). About 500 data bits a row: a tree of about
// 10 XOR2 levels.
//
// Latency 0: combinational, with no valid/ready. The function has no state and no multi-cycle
// structure, so a register stage inside would only fix where the caller's pipeline cuts; the
// SEC-DED line encoder it replaces on the write path is combinational too, and the write path
// (model load, refresh) registers the line image after it. A caller whose clock cannot take
// ten XOR levels registers the output (or the input) itself.
//
// Parameters: the code's M, T, K. The matrix exists only for the code the package was generated
// for (scripts/gen_bch.py --m --t --k); any other value stops elaboration with an error.
`default_nettype none
module flint_bch_enc #(
  parameter int unsigned M = flint_bch_pkg::BchM,
  parameter int unsigned T = flint_bch_pkg::BchT,
  parameter int unsigned K = flint_bch_pkg::BchK,
  // do not override
  localparam int unsigned R = flint_bch_pkg::BchR
) (
  // the line's data: bit j = bit j % 8 of line byte j / 8
  input  logic [K-1:0] data_i,
  // its parity: bit i = coefficient of x^i of the remainder of x^R d(x) by g(x)
  output logic [R-1:0] parity_o
);
  if (M != flint_bch_pkg::BchM || T != flint_bch_pkg::BchT || K != flint_bch_pkg::BchK)
  begin : g_bad_code
    $error("flint_bch_enc: M, T, K differ from the code flint_bch_pkg was generated for");
  end

  for (genvar i = 0; i < R; i++) begin : g_parity
    assign parity_o[i] = ^(data_i & flint_bch_pkg::BchEncRows[i*K +: K]);
  end
endmodule
`default_nettype wire
