// GF(2^M) multiplier (issue #26 item 2; docs/ecc.md, "The BCH decoder's slow path"): the product
// of two field elements in the polynomial basis (bit b = coefficient of alpha^b), reduced by the
// primitive polynomial PrimPoly (bit i = coefficient of x^i, bit M set). Used by the
// Berlekamp-Massey unit (flint_bch_bm) for its discrepancies and locator updates.
//
// Schoolbook: the 2M-1 bit carry-less product of a and b (M^2 AND2, about M^2 XOR2), then the
// high M-1 bits folded back with x^M = PrimPoly - x^M, one bit at a time from the top. For
// M = 11: 121 AND2 and about 150 XOR2 before the tools share terms; depth about 4 + 5 XOR2
// levels.
//
// Latency 0: combinational.
`default_nettype none
module flint_gf_mul #(
  parameter int unsigned   M        = flint_bch_pkg::BchM,
  parameter logic [M:0]    PrimPoly = flint_bch_pkg::BchPrimPoly
) (
  // operands, polynomial basis
  input  logic [M-1:0] a_i,
  input  logic [M-1:0] b_i,
  // a_i * b_i
  output logic [M-1:0] p_o
);
  if (!PrimPoly[M] || !PrimPoly[0]) begin : g_bad_poly
    $error("flint_gf_mul: PrimPoly must have degree M and a constant term");
  end

  logic [2*M-2:0] wide;
  always_comb begin
    wide = '0;
    for (int unsigned i = 0; i < M; i++) begin
      if (b_i[i]) wide = wide ^ ((2*M-1)'(a_i) << i);
    end
    // Fold bit d (d = 2M-2 down to M) onto bits d-M .. d-1: x^d = x^(d-M) (PrimPoly - x^M).
    for (int unsigned d = 2*M-2; d >= M; d--) begin
      if (wide[d]) wide = wide ^ ((2*M-1)'(PrimPoly) << (d - M));
    end
  end
  assign p_o = wide[M-1:0];
endmodule
`default_nettype wire
