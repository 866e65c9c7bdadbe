// Burst translation table (BTT, paper section 4.3): logical burst index -> (block, page) of the
// burst address space. The block is the logical block index that flint_reloc_table then maps per
// (die, plane); the page is the page sensed on every plane.
//
// Storage: one flint_sram of Entries words {valid, block, page}. SRAM contents are not reset, so
// a sweep clears every word after reset and after clear_i: busy_o is high for exactly Entries
// cycles (the first Entries cycles out of reset, or the Entries cycles after the clear_i cycle).
// While busy, loads are refused (load_ready_o low) and every in-range lookup answers NOT_LOADED.
//
// Lookup: a request accepted in cycle t is answered in cycle t+1 with status OK, OUT_OF_RANGE
// (index >= Entries) or NOT_LOADED; block and page are zero unless OK. One request is in
// flight; the response holds while rsp_ready_i is low, and the next request is accepted in the
// cycle the response is taken, so back-to-back lookups run at one a cycle.
//
// Loads run concurrently with lookups (1R1W SRAM): a lookup accepted in cycle t sees every load
// accepted before cycle t, not one accepted in cycle t itself (read-before-write). A clear_i in
// cycle t forgets every load accepted up to and including cycle t; lookups accepted in cycle t
// still see the old contents. A load of an index >= Entries is dropped and raises the sticky
// load_err_o (the first such index in load_err_idx_o) until clear_i or reset.
`default_nettype none
`include "flint_assert.svh"
module flint_btt #(
  parameter int unsigned Entries = flint_cfg_pkg::BttEntries,
  parameter int unsigned Blocks  = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages   = flint_cfg_pkg::Pages,
  // width of a logical burst index as the requester computes it; indexes >= Entries are errors
  parameter int unsigned IdxBits = 32,
  // do not override
  localparam int unsigned BlockBits  = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits   = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned AddrBits   = (Entries > 1) ? $clog2(Entries) : 1,
  localparam int unsigned EntryWidth = 1 + BlockBits + PageBits
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // control and status
  input  logic                 clear_i,
  output logic                 busy_o,
  output logic                 load_err_o,
  output logic [IdxBits-1:0]   load_err_idx_o,
  // load port (model load)
  input  logic                 load_valid_i,
  output logic                 load_ready_o,
  input  logic [IdxBits-1:0]   load_idx_i,
  input  logic [BlockBits-1:0] load_block_i,
  input  logic [PageBits-1:0]  load_page_i,
  // lookup request
  input  logic                 lookup_valid_i,
  output logic                 lookup_ready_o,
  input  logic [IdxBits-1:0]   lookup_idx_i,
  // lookup response
  output logic                 rsp_valid_o,
  input  logic                 rsp_ready_i,
  output flint_pkg::status_e   rsp_status_o,
  output logic [BlockBits-1:0] rsp_block_o,
  output logic [PageBits-1:0]  rsp_page_o
);
  function automatic logic in_range(input logic [IdxBits-1:0] idx);
    in_range = 64'(idx) < 64'(Entries);
  endfunction

  // Clear sweep.
  logic busy_q, busy_d;
  logic [AddrBits-1:0] sweep_q, sweep_d;
  // Load error.
  logic err_q, err_d;
  logic [IdxBits-1:0] err_idx_q, err_idx_d;
  // Response: rsp_read_q = answer from the SRAM word, rsp_oor_q = index out of range; neither =
  // NOT_LOADED because the table was being cleared. fresh_q = the SRAM output holds this
  // response's word (first cycle); later cycles use hold_q.
  logic rsp_valid_q, rsp_valid_d, rsp_read_q, rsp_read_d, rsp_oor_q, rsp_oor_d, fresh_q;
  logic [EntryWidth-1:0] hold_q, word;

  logic load_fire, lookup_fire, lookup_in_range, rd_en, wr_en;
  logic [AddrBits-1:0] wr_addr;
  logic [EntryWidth-1:0] wr_data, rd_data;

  assign load_ready_o   = !busy_q;
  assign lookup_ready_o = !rsp_valid_q || rsp_ready_i;
  assign load_fire      = load_valid_i && load_ready_o;
  assign lookup_fire    = lookup_valid_i && lookup_ready_o;
  assign lookup_in_range = in_range(lookup_idx_i);
  assign rd_en = lookup_fire && lookup_in_range && !busy_q;
  // The sweep owns the write port; loads are refused meanwhile.
  assign wr_en   = busy_q || (load_fire && in_range(load_idx_i));
  assign wr_addr = busy_q ? sweep_q : load_idx_i[AddrBits-1:0];
  assign wr_data = busy_q ? '0 : {1'b1, load_block_i, load_page_i};

  always_comb begin
    busy_d  = busy_q;
    sweep_d = sweep_q;
    if (busy_q) begin
      sweep_d = sweep_q + 1'b1;
      if (32'(sweep_q) == Entries - 1) busy_d = 1'b0;
    end
    if (clear_i) begin
      busy_d  = 1'b1;
      sweep_d = '0;
    end
  end

  always_comb begin
    err_d     = err_q;
    err_idx_d = err_idx_q;
    if (load_fire && !in_range(load_idx_i) && !err_q) begin
      err_d     = 1'b1;
      err_idx_d = load_idx_i;
    end
    if (clear_i) begin
      err_d     = 1'b0;
      err_idx_d = '0;
    end
  end

  always_comb begin
    rsp_valid_d = rsp_valid_q;
    rsp_read_d  = rsp_read_q;
    rsp_oor_d   = rsp_oor_q;
    if (rsp_valid_q && rsp_ready_i) rsp_valid_d = 1'b0;
    if (lookup_fire) begin
      rsp_valid_d = 1'b1;
      rsp_read_d  = lookup_in_range && !busy_q;
      rsp_oor_d   = !lookup_in_range;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b1;  // clear every word before the first load
      sweep_q     <= '0;
      err_q       <= 1'b0;
      err_idx_q   <= '0;
      rsp_valid_q <= 1'b0;
      rsp_read_q  <= 1'b0;
      rsp_oor_q   <= 1'b0;
      fresh_q     <= 1'b0;
      hold_q      <= '0;
    end else begin
      busy_q      <= busy_d;
      sweep_q     <= sweep_d;
      err_q       <= err_d;
      err_idx_q   <= err_idx_d;
      rsp_valid_q <= rsp_valid_d;
      rsp_read_q  <= rsp_read_d;
      rsp_oor_q   <= rsp_oor_d;
      fresh_q     <= rd_en;
      if (fresh_q) hold_q <= rd_data;
    end
  end

  flint_sram #(
    .Width(EntryWidth),
    .Depth(Entries)
  ) u_table (
    .clk_i,
    .rd_en_i  (rd_en),
    .rd_addr_i(lookup_idx_i[AddrBits-1:0]),
    .rd_data_o(rd_data),
    .wr_en_i  (wr_en),
    .wr_addr_i(wr_addr),
    .wr_data_i(wr_data)
  );

  // Response: never a made-up mapping, so block and page are zero unless the word is valid.
  assign word = fresh_q ? rd_data : hold_q;
  always_comb begin
    rsp_status_o = flint_pkg::StatusNotLoaded;
    rsp_block_o  = '0;
    rsp_page_o   = '0;
    if (rsp_oor_q) begin
      rsp_status_o = flint_pkg::StatusOutOfRange;
    end else if (rsp_read_q && word[EntryWidth-1]) begin
      rsp_status_o = flint_pkg::StatusOk;
      rsp_block_o  = word[PageBits +: BlockBits];
      rsp_page_o   = word[0 +: PageBits];
    end
  end
  assign rsp_valid_o    = rsp_valid_q;
  assign busy_o         = busy_q;
  assign load_err_o     = err_q;
  assign load_err_idx_o = err_idx_q;

`ifndef SYNTHESIS
  initial begin
    if (Entries < 2 || 64'(Entries) > (64'd1 << IdxBits) || AddrBits > IdxBits) begin
      $fatal(1, "%m: Entries = %0d does not fit IdxBits = %0d", Entries, IdxBits);
    end
  end
  // Handshakes: a request or response stays put while it waits (STYLE.md); a request
  // offered during reset does not count.
  `FLINT_ASSERT_IMPLY(a_lookup_stable, $past(rst_ni && lookup_valid_i && !lookup_ready_o),
                      lookup_valid_i && lookup_idx_i == $past(lookup_idx_i))
  `FLINT_ASSERT_IMPLY(a_load_stable, $past(rst_ni && load_valid_i && !load_ready_o),
                      load_valid_i && load_idx_i == $past(load_idx_i) &&
                      load_block_i == $past(load_block_i) && load_page_i == $past(load_page_i))
  `FLINT_ASSERT_IMPLY(a_rsp_stable, $past(rsp_valid_o && !rsp_ready_i),
                      rsp_valid_o && rsp_status_o == $past(rsp_status_o) &&
                      rsp_block_o == $past(rsp_block_o) && rsp_page_o == $past(rsp_page_o))
  // One-cycle answer: a lookup accepted in cycle t is the response of cycle t+1.
  `FLINT_ASSERT_IMPLY(a_one_cycle, $past(rst_ni && lookup_fire), rsp_valid_o)
  `FLINT_ASSERT_IMPLY(a_no_made_up, rsp_valid_o && rsp_status_o != flint_pkg::StatusOk,
                      rsp_block_o == '0 && rsp_page_o == '0)
  `FLINT_ASSERT_IMPLY(a_sweep_in_range, busy_q, 32'(sweep_q) < Entries)
  `FLINT_COVER(c_lookup_while_busy, lookup_fire && busy_q)
  `FLINT_COVER(c_load_and_lookup_same_index, load_fire && lookup_fire && load_idx_i == lookup_idx_i)
  `FLINT_COVER(c_rsp_held, rsp_valid_o && !rsp_ready_i && !fresh_q)
  `FLINT_COVER(c_clear_while_busy, clear_i && busy_q)
  // Each answer; a load past the table (the error, and another after the sticky flag is up);
  // a load refused by the sweep.
  `FLINT_COVER(c_rsp_ok, rsp_valid_o && rsp_status_o == flint_pkg::StatusOk)
  `FLINT_COVER(c_rsp_not_loaded, rsp_valid_o && rsp_status_o == flint_pkg::StatusNotLoaded)
  `FLINT_COVER(c_rsp_out_of_range, rsp_valid_o && rsp_status_o == flint_pkg::StatusOutOfRange)
  `FLINT_COVER(c_load_err, load_fire && !in_range(load_idx_i) && !err_q)
  `FLINT_COVER(c_load_err_again, load_fire && !in_range(load_idx_i) && err_q)
  `FLINT_COVER(c_load_refused_busy, load_valid_i && busy_q)
`endif
endmodule
`default_nettype wire
