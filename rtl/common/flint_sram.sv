// SRAM wrapper: Depth words of Width bits, one read port and one write port (1R1W).
// Every large table goes through this module (STYLE.md): in simulation it is a behavioural
// array; under SYNTHESIS it is an empty blackbox, so Yosys reports the macro apart from logic
// and synth/ prices it with the SRAM area model from (Width, Depth).
// Read: address in cycle t, data in cycle t+1 (registered, as a compiled SRAM). A read and a
// write to the same address in one cycle return the old word (read-before-write).
// Contents are not reset: the tables that need a known state keep their own valid bits.
`default_nettype none
`ifdef SYNTHESIS
(* blackbox *)
module flint_sram #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 16,
  // do not override
  localparam int unsigned AddrBits = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                clk_i,
  input  logic                rd_en_i,
  input  logic [AddrBits-1:0] rd_addr_i,
  output logic [Width-1:0]    rd_data_o,
  input  logic                wr_en_i,
  input  logic [AddrBits-1:0] wr_addr_i,
  input  logic [Width-1:0]    wr_data_i
);
endmodule
`else
module flint_sram #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 16,
  // do not override
  localparam int unsigned AddrBits = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                clk_i,
  // read port
  input  logic                rd_en_i,
  input  logic [AddrBits-1:0] rd_addr_i,
  output logic [Width-1:0]    rd_data_o,
  // write port
  input  logic                wr_en_i,
  input  logic [AddrBits-1:0] wr_addr_i,
  input  logic [Width-1:0]    wr_data_i
);
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rd_data_q;

  always_ff @(posedge clk_i) begin
    if (rd_en_i) rd_data_q <= mem_q[rd_addr_i];
    if (wr_en_i) mem_q[wr_addr_i] <= wr_data_i;
  end
  assign rd_data_o = rd_data_q;

  // An address past Depth would read or write nothing real: the caller's bug, caught here.
`ifdef FORMAL
  // Yosys -formal has no $error: the same check as assertions (scripts/formal.py).
  always @(posedge clk_i) begin
    if (rd_en_i) assert (32'(rd_addr_i) < Depth);
    if (wr_en_i) assert (32'(wr_addr_i) < Depth);
  end
`else
  always_ff @(posedge clk_i) begin
    if (rd_en_i && 32'(rd_addr_i) >= Depth) $error("%m: read address %0d >= Depth", rd_addr_i);
    if (wr_en_i && 32'(wr_addr_i) >= Depth) $error("%m: write address %0d >= Depth", wr_addr_i);
  end
`endif
endmodule
`endif
`default_nettype wire
