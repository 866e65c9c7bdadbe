// Helpers shared by the FTL testbenches.
#pragma once
#include <cstdint>

namespace flint::tb {

// Harness::Reset() drives rst_ni low without an edge if the port already starts low, so the
// asynchronous reset would only act at the first clock edge, after the SRAM wrappers have seen
// that edge with random enables. Raising rst_ni first makes the drop an edge: the flops are in
// reset before any clock. Returns the cycle count at the end of reset (cycle 0 of the DUT).
template <class H>
uint64_t ResetFromHigh(H& h) {
  h.dut().rst_ni = 1;
  h.Eval();
  h.Reset();
  return h.cycle();
}

}  // namespace flint::tb
