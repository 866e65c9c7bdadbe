// Synchronous FIFO with valid/ready on both sides.
// Depth entries of Width bits; any Depth >= 2. Not fall-through: an entry written in cycle t
// is visible at the output in cycle t+1. A push and a pop may happen in the same cycle, also
// when full (the pop frees the slot the push fills), so a full FIFO still streams at one entry
// a cycle. usage_o counts stored entries.
`default_nettype none
`include "flint_assert.svh"
module flint_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 4,
  // do not override
  localparam int unsigned PtrBits = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned CntBits = $clog2(Depth + 1)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // push side
  input  logic               in_valid_i,
  output logic               in_ready_o,
  input  logic [Width-1:0]   in_data_i,
  // pop side
  output logic               out_valid_o,
  input  logic               out_ready_i,
  output logic [Width-1:0]   out_data_o,
  // occupancy
  output logic [CntBits-1:0] usage_o
);
  logic [Width-1:0] mem_q [Depth];
  logic [PtrBits-1:0] rd_ptr_q, rd_ptr_d, wr_ptr_q, wr_ptr_d;
  logic [CntBits-1:0] count_q, count_d;
  logic push, pop;

  assign out_valid_o = (count_q != '0);
  assign in_ready_o  = (count_q != CntBits'(Depth)) || out_ready_i;
  assign push = in_valid_i && in_ready_o;
  assign pop  = out_valid_o && out_ready_i;
  assign out_data_o = mem_q[rd_ptr_q];
  assign usage_o = count_q;

  function automatic logic [PtrBits-1:0] next_ptr(input logic [PtrBits-1:0] ptr);
    if (ptr == PtrBits'(Depth - 1)) next_ptr = '0;
    else next_ptr = ptr + 1'b1;
  endfunction

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    if (push) wr_ptr_d = next_ptr(wr_ptr_q);
    if (pop) rd_ptr_d = next_ptr(rd_ptr_q);
    if (push && !pop) count_d = count_q + 1'b1;
    if (pop && !push) count_d = count_q - 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q  <= count_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) mem_q[wr_ptr_q] <= in_data_i;
  end

`ifndef SYNTHESIS
  `FLINT_ASSERT(a_count_in_range, count_q <= CntBits'(Depth))
  `FLINT_ASSERT_IMPLY(a_no_pop_when_empty, count_q == '0, !pop)
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && out_data_o == $past(out_data_o))
  `FLINT_COVER(c_full, count_q == CntBits'(Depth))
  `FLINT_COVER(c_push_pop_full, push && pop && count_q == CntBits'(Depth))
  `FLINT_COVER(c_push_refused, in_valid_i && !in_ready_o)
`endif
endmodule
`default_nettype wire
