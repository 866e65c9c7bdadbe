// Register slice on a valid/ready stream: cuts every combinational path between its two sides.
// in_ready_o, out_valid_o and out_data_o each come straight from a flop, so neither side's
// timing reaches the other.
// Two entries (a skid buffer): the output register, and a skid register that catches the word
// accepted in the cycle the consumer stalls (in_ready_o, being a flop, was already high).
// A consumer that is always ready therefore gets one word a cycle, and a stall costs no bubble.
// Latency: a word accepted in cycle t is at the output in cycle t+1.
// Only the valid bits are reset; the payload flops are not (wide payloads are common and reset
// costs area), so out_data_o means something only while out_valid_o is high.
`default_nettype none
`include "flint_assert.svh"
module flint_reg_slice #(
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // input side
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  // output side
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o
);
  logic out_valid_q, out_valid_d;
  logic skid_valid_q, skid_valid_d;
  logic [Width-1:0] out_data_q, out_data_d, skid_data_q;
  logic push, pop, load_out, load_skid;

  assign in_ready_o  = !skid_valid_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;
  assign push = in_valid_i && in_ready_o;
  assign pop  = out_valid_q && out_ready_i;

  // The output register refills whenever it is empty or being emptied: from the skid register
  // if that holds the older word, else from the input. A word that arrives while the output
  // stalls goes to the skid register (which is free, or in_ready_o would be low).
  always_comb begin
    out_valid_d  = out_valid_q;
    skid_valid_d = skid_valid_q;
    out_data_d   = in_data_i;
    load_out     = 1'b0;
    load_skid    = 1'b0;
    if (!out_valid_q || pop) begin
      if (skid_valid_q) begin
        load_out     = 1'b1;
        out_data_d   = skid_data_q;
        out_valid_d  = 1'b1;
        skid_valid_d = 1'b0;
      end else begin
        load_out    = push;
        out_valid_d = push;
      end
    end else if (push) begin
      load_skid    = 1'b1;
      skid_valid_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q  <= 1'b0;
      skid_valid_q <= 1'b0;
    end else begin
      out_valid_q  <= out_valid_d;
      skid_valid_q <= skid_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (load_out) out_data_q <= out_data_d;
    if (load_skid) skid_data_q <= in_data_i;
  end

`ifndef SYNTHESIS
  // The skid register only ever holds the younger of two words.
  `FLINT_ASSERT_IMPLY(a_skid_behind_out, skid_valid_q, out_valid_q)
  `FLINT_ASSERT_IMPLY(a_out_stable, $past(out_valid_o && !out_ready_i),
                      out_valid_o && out_data_o == $past(out_data_o))
  `FLINT_COVER(c_skid_used, skid_valid_q)
  `FLINT_COVER(c_skid_drain, skid_valid_q && out_ready_i)
`endif
endmodule
`default_nettype wire
