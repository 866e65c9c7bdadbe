// Assertion macros: one source for every flow (VERIFY.md).
//   Simulation (Verilator): concurrent SVA, disabled in reset, failure -> $error.
//   Yosys -formal:          immediate assert in a clocked block.
//   Yosys synthesis:        nothing, so no assertion cell reaches the area report.
// Properties are plain boolean expressions; write "a implies b" as FLINT_ASSERT_IMPLY.
// The module must have clk_i and rst_ni. FLINT_COVER counts the cycles where prop holds
// (make coverage, docs/coverage.md); FLINT_COVER_COMB is its form for combinational blocks
// without a clock: an immediate cover, counted at every evaluation of the block where prop holds.
`ifndef FLINT_ASSERT_SVH
`define FLINT_ASSERT_SVH

`ifdef FORMAL
  // No label: Yosys 0.23 rejects one label in two iterations of a generate loop (flint_rr_arb's
  // a_fair); a failing assertion is named by its source line (scripts/formal.py, docs/formal.md).
  `define FLINT_ASSERT(name, prop) \
    always @(posedge clk_i) if (rst_ni) assert (prop);
  `define FLINT_ASSERT_IMPLY(name, ante, cons) \
    always @(posedge clk_i) if (rst_ni && (ante)) assert (cons);
  `define FLINT_COVER(name, prop)
  `define FLINT_COVER_COMB(name, prop)
`elsif SYNTHESIS
  `define FLINT_ASSERT(name, prop)
  `define FLINT_ASSERT_IMPLY(name, ante, cons)
  `define FLINT_COVER(name, prop)
  `define FLINT_COVER_COMB(name, prop)
`else
  `define FLINT_ASSERT(name, prop) \
    name: assert property (@(posedge clk_i) disable iff (!rst_ni) (prop)) \
      else $error("%m: assertion %s failed", `"name`");
  `define FLINT_ASSERT_IMPLY(name, ante, cons) \
    name: assert property (@(posedge clk_i) disable iff (!rst_ni) (ante) |-> (cons)) \
      else $error("%m: assertion %s failed", `"name`");
  `define FLINT_COVER(name, prop) \
    name: cover property (@(posedge clk_i) disable iff (!rst_ni) (prop));
  `define FLINT_COVER_COMB(name, prop) \
    always_comb begin name: cover (prop); end
`endif

// FLINT_CHECKS: defined where assertions are checked (simulation and Yosys -formal), not in
// synthesis. Shadow state that only assertions read (a block's own bookkeeping of tags or
// occupancy) goes under `ifdef FLINT_CHECKS, so its proofs see the same assertions the
// simulations check and no shadow register reaches the area report.
`ifdef FORMAL
  `define FLINT_CHECKS
`elsif SYNTHESIS
`else
  `define FLINT_CHECKS
`endif

`endif
