// Formal property wrapper of flint_fifo (docs/formal.md; run by scripts/formal.py).
// Besides the FIFO's own assertions it proves, by induction, for every Depth-entry run:
//   - the occupancy never exceeds Depth and matches pushes minus pops (a shadow count);
//   - order and integrity: one element, chosen by the solver (pick_i on its push), leaves after
//     exactly the elements that were in front of it when it entered, with the data it entered
//     with, and leaves once.
// tap_* inputs are not ports of the proof: scripts/formal.py deletes the port and connects each
// to the FIFO's internal signal named in its table (pointers and storage), which the induction
// invariants below need. In a simulator they are free inputs and the invariants mean nothing.
`default_nettype none
// The assertions below run in clocked blocks gated by rst_ni, which the block resets on
// asynchronously: as the RTL's (rtl/flint.vlt), waived for Verilator's lint of this file.
/* verilator lint_off SYNCASYNCNET */
module flint_fifo_props #(
  parameter int unsigned Width = 2,
  parameter int unsigned Depth = 3,
  // do not override
  localparam int unsigned PtrBits = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntBits = $clog2(Depth + 1)
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   in_valid_i,
  input logic [Width-1:0]       in_data_i,
  input logic                   out_ready_i,
  input logic                   pick_i,       // track the element pushed in this cycle
  // bound to internals by scripts/formal.py
  input logic [PtrBits-1:0]     tap_rd_ptr,
  input logic [PtrBits-1:0]     tap_wr_ptr,
  input logic [Depth*Width-1:0] tap_mem       // word i at [i*Width +: Width]
);
  logic in_ready, out_valid;
  logic [Width-1:0] out_data;
  logic [CntBits-1:0] usage;

  flint_fifo #(.Width(Width), .Depth(Depth)) u_dut (
    .clk_i,
    .rst_ni,
    .in_valid_i,
    .in_ready_o (in_ready),
    .in_data_i,
    .out_valid_o(out_valid),
    .out_ready_i,
    .out_data_o (out_data),
    .usage_o    (usage)
  );

  logic push, pop;
  assign push = in_valid_i && in_ready;
  assign pop  = out_valid && out_ready_i;

  // Reset in the first cycle; resets may come again later (the tracker resets too).
  logic f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
`ifndef DROP_RESET_ASSUME
  always @(*) if (f_init_q) assume (!rst_ni);
`endif

  // --- shadow count and the tracked element ---------------------------------------------------
  logic [CntBits-1:0] cnt_q;
  logic               trk_q;    // the tracked element is in the FIFO
  logic               done_q;   // ... and has left (at most once per run)
  logic [Width-1:0]   dat_q;    // its data
  logic [CntBits-1:0] ahead_q;  // elements in front of it
  logic               start;
  assign start = push && pick_i && !trk_q && !done_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q   <= '0;
      trk_q   <= 1'b0;
      done_q  <= 1'b0;
      dat_q   <= '0;
      ahead_q <= '0;
    end else begin
      cnt_q <= cnt_q + CntBits'(push) - CntBits'(pop);
      if (start) begin
        trk_q   <= 1'b1;
        dat_q   <= in_data_i;
        ahead_q <= cnt_q - CntBits'(pop);
      end
      if (trk_q && pop) begin
        if (ahead_q == '0) begin
          trk_q  <= 1'b0;
          done_q <= 1'b1;
        end else begin
          ahead_q <= ahead_q - 1'b1;
        end
      end
    end
  end

  // (a + b) mod Depth for a < Depth, b <= Depth, in narrow arithmetic (a 32-bit % costs the
  // solver ten times the rest of the proof).
  function automatic logic [PtrBits-1:0] wrap(input logic [PtrBits-1:0] a,
                                               input logic [CntBits-1:0] b);
    logic [CntBits:0] s;
    s = (CntBits + 1)'(a) + (CntBits + 1)'(b);
    if (s >= (CntBits + 1)'(Depth)) s = s - (CntBits + 1)'(Depth);
    wrap = PtrBits'(s);
  endfunction

  always @(posedge clk_i) begin
    if (rst_ni && !f_init_q) begin
      // The interface.
      a_usage_is_shadow: assert (usage == cnt_q);
      a_ready_unless_full: assert (in_ready == (usage < CntBits'(Depth) || out_ready_i));
`ifndef BREAK_PROP
      // The tracked element comes out when nothing is in front of it, with its data.
      if (trk_q && pop && ahead_q == '0) a_in_order: assert (out_data == dat_q);
`else
      // Broken on purpose (non-vacuity check): claims it comes out one pop early.
      if (trk_q && pop && ahead_q == CntBits'(1)) a_in_order: assert (out_data == dat_q);
`endif
      a_tracked_inside: assert (!trk_q || ahead_q < cnt_q);
      a_once: assert (!(trk_q && done_q));
      // Induction strengthening: pointers agree with the count; the tracked element sits in
      // its slot.
      a_ptrs_in_range: assert ((CntBits + 1)'(tap_rd_ptr) < (CntBits + 1)'(Depth) &&
                               (CntBits + 1)'(tap_wr_ptr) < (CntBits + 1)'(Depth));
      a_ptrs_agree: assert (tap_wr_ptr == wrap(tap_rd_ptr, cnt_q));
      if (trk_q) begin
        a_tracked_stored: assert (tap_mem[wrap(tap_rd_ptr, ahead_q) * Width +: Width] == dat_q);
      end
    end
  end
endmodule
`default_nettype wire
