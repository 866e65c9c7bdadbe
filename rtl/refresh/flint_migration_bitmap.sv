// Migration bitmap (paper section 4.2, Fig. 8): one bit per (block, page) of the plane being
// copied into the phantom this rotation, so each page is programmed into the phantom once
// however often foreground reads fork it. One instance per die.
//
// Storage: a flint_sram of Blocks*Pages/WordBits words, and a flint_sram of one set-page count
// per block (so "this set completed the block" costs no popcount). SRAM contents are not reset:
// a sweep clears both after reset and after clear_i; busy_o is high for exactly Words cycles
// (the first Words cycles out of reset, or the Words cycles after the clear_i cycle), and no
// operation is accepted while busy or in the clear_i cycle. An operation in flight when clear_i
// comes still answers (from the state before the clear) and its write is overwritten by the
// sweep.
//
// Test-and-set (the fork of a corrected foreground or scrubber read): accepted in cycle t,
// answered in cycle t+1 for exactly one cycle (no back-pressure: the caller gates tas_valid_i on
// room for what it does with the answer). first = the bit was clear and is now set (program the
// page); block_done = this set was the block's last clear page (remap it). Back-to-back
// operations on the same word see each other (a one-deep forward over the SRAM's
// read-before-write).
//
// Scan (the scrubber): the first clear bit at or after a cursor that walks the bitmap once per
// rotation; accepted when no test-and-set is offered and no scan is in flight, answered in the
// next cycle. found = a clear (block, page) (the cursor moves past it); otherwise the cursor's
// word was full and the cursor moved to the next word; it wraps at the end. all_set_o says the
// rotation's copy is complete.
`default_nettype none
`include "flint_assert.svh"
module flint_migration_bitmap #(
  parameter int unsigned Blocks   = flint_cfg_pkg::Blocks,
  parameter int unsigned Pages    = flint_cfg_pkg::Pages,
  parameter int unsigned WordBits = (flint_cfg_pkg::Pages < 64) ? flint_cfg_pkg::Pages : 64,
  // do not override
  localparam int unsigned BlockBits = (Blocks > 1) ? $clog2(Blocks) : 1,
  localparam int unsigned PageBits  = (Pages > 1) ? $clog2(Pages) : 1,
  localparam int unsigned WordsPerBlock = Pages / WordBits,
  localparam int unsigned Words     = Blocks * WordsPerBlock,
  localparam int unsigned WordAddrBits = (Words > 1) ? $clog2(Words) : 1,
  localparam int unsigned BitBits   = (WordBits > 1) ? $clog2(WordBits) : 1,
  localparam int unsigned CountBits = $clog2(Pages + 1),
  localparam int unsigned TotalBits = $clog2(Blocks * Pages + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clear_i,
  output logic                 busy_o,
  // test-and-set
  input  logic                 tas_valid_i,
  output logic                 tas_ready_o,
  input  logic [BlockBits-1:0] tas_block_i,
  input  logic [PageBits-1:0]  tas_page_i,
  output logic                 tas_rsp_valid_o,
  output logic                 tas_first_o,
  output logic                 tas_block_done_o,
  output logic [BlockBits-1:0] tas_rsp_block_o,
  output logic [PageBits-1:0]  tas_rsp_page_o,
  // scrubber scan
  input  logic                 scan_valid_i,
  output logic                 scan_ready_o,
  output logic                 scan_rsp_valid_o,
  output logic                 scan_found_o,
  output logic [BlockBits-1:0] scan_block_o,
  output logic [PageBits-1:0]  scan_page_o,
  // progress
  output logic [TotalBits-1:0] set_count_o,
  output logic                 all_set_o
);
  // Stage 0 -> 1 registers.
  logic s1_tas_q, s1_scan_q;
  logic [BlockBits-1:0] s1_block_q;
  logic [PageBits-1:0] s1_page_q;
  logic [WordAddrBits-1:0] s1_waddr_q;
  // One-deep forward: the words written in the previous cycle.
  logic fw_word_q, fw_cnt_q;
  logic [WordAddrBits-1:0] fw_waddr_q;
  logic [WordBits-1:0] fw_wdata_q;
  logic [BlockBits-1:0] fw_block_q;
  logic [CountBits-1:0] fw_cdata_q;
  // Sweep and scan cursor.
  logic busy_q;
  logic [WordAddrBits-1:0] sweep_q;
  logic [WordAddrBits-1:0] cur_word_q;
  logic [BitBits-1:0] cur_bit_q;
  logic [TotalBits-1:0] total_q;

  logic tas_fire, scan_fire;
  logic [WordAddrBits-1:0] rd_waddr, tas_waddr;
  logic [WordBits-1:0] word_rd, word;
  logic [CountBits-1:0] cnt_rd, cnt;
  logic word_we, cnt_we;
  logic [WordAddrBits-1:0] word_wa;
  logic [WordBits-1:0] word_wd;
  logic [BlockBits-1:0] cnt_wa;
  logic [CountBits-1:0] cnt_wd;
  logic [BitBits-1:0] tas_bit;
  logic bit_was_set, first;
  logic found;
  logic [BitBits-1:0] found_bit;

  assign busy_o       = busy_q;
  assign tas_ready_o  = !busy_q && !clear_i;
  assign scan_ready_o = !busy_q && !clear_i && !tas_valid_i && !s1_scan_q;
  assign tas_fire     = tas_valid_i && tas_ready_o;
  assign scan_fire    = scan_valid_i && scan_ready_o;

  assign tas_waddr = WordAddrBits'(32'(tas_block_i) * WordsPerBlock +
                                   32'(tas_page_i) / WordBits);
  assign rd_waddr  = tas_fire ? tas_waddr : cur_word_q;

  flint_sram #(.Width(WordBits), .Depth(Words)) u_bits (
    .clk_i,
    .rd_en_i  (tas_fire || scan_fire),
    .rd_addr_i(rd_waddr),
    .rd_data_o(word_rd),
    .wr_en_i  (word_we),
    .wr_addr_i(word_wa),
    .wr_data_i(word_wd)
  );

  flint_sram #(.Width(CountBits), .Depth(Blocks)) u_counts (
    .clk_i,
    .rd_en_i  (tas_fire),
    .rd_addr_i(tas_block_i),
    .rd_data_o(cnt_rd),
    .wr_en_i  (cnt_we),
    .wr_addr_i(cnt_wa),
    .wr_data_i(cnt_wd)
  );

  // Stage 1: the word and count as they are now, with last cycle's writes forwarded.
  assign word = (fw_word_q && fw_waddr_q == s1_waddr_q) ? fw_wdata_q : word_rd;
  assign cnt  = (fw_cnt_q && fw_block_q == s1_block_q) ? fw_cdata_q : cnt_rd;
  assign tas_bit     = BitBits'(32'(s1_page_q) % WordBits);
  assign bit_was_set = word[tas_bit];
  assign first       = s1_tas_q && !bit_was_set;

  // Scan: the lowest clear bit at or above the cursor bit.
  always_comb begin
    found = 1'b0;
    found_bit = '0;
    for (int unsigned b = WordBits; b > 0; b--) begin
      if (32'(b - 1) >= 32'(cur_bit_q) && !word[b-1]) begin
        found = 1'b1;
        found_bit = BitBits'(b - 1);
      end
    end
  end

  // Writes: the sweep, else the test-and-set's new word and count.
  always_comb begin
    word_we = 1'b0;
    word_wa = s1_waddr_q;
    word_wd = word | (WordBits'(1) << tas_bit);
    cnt_we  = 1'b0;
    cnt_wa  = s1_block_q;
    cnt_wd  = cnt + CountBits'(1);
    if (busy_q) begin
      word_we = 1'b1;
      word_wa = sweep_q;
      word_wd = '0;
      cnt_we  = 32'(sweep_q) < Blocks;
      cnt_wa  = BlockBits'(sweep_q);
      cnt_wd  = '0;
    end else if (first) begin
      word_we = 1'b1;
      cnt_we  = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_tas_q   <= 1'b0;
      s1_scan_q  <= 1'b0;
      s1_block_q <= '0;
      s1_page_q  <= '0;
      s1_waddr_q <= '0;
      fw_word_q  <= 1'b0;
      fw_cnt_q   <= 1'b0;
      fw_waddr_q <= '0;
      fw_wdata_q <= '0;
      fw_block_q <= '0;
      fw_cdata_q <= '0;
      busy_q     <= 1'b1;
      sweep_q    <= '0;
      cur_word_q <= '0;
      cur_bit_q  <= '0;
      total_q    <= '0;
    end else begin
      s1_tas_q  <= tas_fire;
      s1_scan_q <= scan_fire;
      if (tas_fire) begin
        s1_block_q <= tas_block_i;
        s1_page_q  <= tas_page_i;
        s1_waddr_q <= tas_waddr;
      end else if (scan_fire) begin
        s1_waddr_q <= cur_word_q;
      end
      fw_word_q  <= word_we;
      fw_cnt_q   <= cnt_we;
      fw_waddr_q <= word_wa;
      fw_wdata_q <= word_wd;
      fw_block_q <= cnt_wa;
      fw_cdata_q <= cnt_wd;
      if (first && !busy_q) total_q <= total_q + TotalBits'(1);
      // The scan cursor moves past what it found, or to the next word.
      if (s1_scan_q && !busy_q) begin
        if (found && 32'(found_bit) + 1 < WordBits) begin
          cur_bit_q <= found_bit + BitBits'(1);
        end else begin
          cur_bit_q  <= '0;
          cur_word_q <= (32'(cur_word_q) + 1 == Words) ? '0 : cur_word_q + WordAddrBits'(1);
        end
      end
      if (clear_i) begin
        busy_q     <= 1'b1;
        sweep_q    <= '0;
        cur_word_q <= '0;
        cur_bit_q  <= '0;
        total_q    <= '0;
      end else if (busy_q) begin
        sweep_q <= sweep_q + WordAddrBits'(1);
        if (32'(sweep_q) + 1 == Words) busy_q <= 1'b0;
      end
    end
  end

  assign tas_rsp_valid_o  = s1_tas_q;
  assign tas_first_o      = first;
  assign tas_block_done_o = first && 32'(cnt) + 1 == Pages;
  assign tas_rsp_block_o  = s1_block_q;
  assign tas_rsp_page_o   = s1_page_q;
  assign scan_rsp_valid_o = s1_scan_q;
  assign scan_found_o     = s1_scan_q && found;
  assign scan_block_o     = BlockBits'(32'(s1_waddr_q) / WordsPerBlock);
  assign scan_page_o      = PageBits'((32'(s1_waddr_q) % WordsPerBlock) * WordBits +
                                      32'(found_bit));
  assign set_count_o      = total_q;
  assign all_set_o        = !busy_q && 32'(total_q) == Blocks * Pages;

  // A block's count never passes Pages, and the total never passes the bitmap.
  `FLINT_ASSERT(CountInRange, !(s1_tas_q && !busy_q) || 32'(cnt) <= Pages)
  `FLINT_ASSERT_IMPLY(FirstOnlyIfRoom, first && !busy_q, 32'(cnt) < Pages)
  `FLINT_ASSERT(TotalInRange, 32'(total_q) <= Blocks * Pages)
  `FLINT_ASSERT(NoOpWhileBusy, !(busy_q && (tas_fire || scan_fire)))
  `FLINT_ASSERT(OneOpPerCycle, !(tas_fire && scan_fire))

  // Functional coverage (make coverage): test-and-set first and not first, the block's last
  // page, a test-and-set seeing last cycle's write to its word; scans finding a page, finding
  // a full word, wrapping at the end; a clear with an operation in flight; the plane all set;
  // a scan held off by a test-and-set.
  `FLINT_COVER(c_tas_first, s1_tas_q && !busy_q && first)
  `FLINT_COVER(c_tas_not_first, s1_tas_q && !busy_q && !first)
  `FLINT_COVER(c_block_done, tas_block_done_o && !busy_q)
  `FLINT_COVER(c_tas_forwarded, s1_tas_q && !busy_q && fw_word_q && fw_waddr_q == s1_waddr_q)
  `FLINT_COVER(c_scan_found, s1_scan_q && !busy_q && found)
  `FLINT_COVER(c_scan_word_full, s1_scan_q && !busy_q && !found)
  `FLINT_COVER(c_scan_wrap, s1_scan_q && !busy_q && 32'(cur_word_q) + 1 == Words &&
                            (!found || 32'(found_bit) + 1 == WordBits))
  `FLINT_COVER(c_clear_in_flight, clear_i && (s1_tas_q || s1_scan_q))
  `FLINT_COVER(c_all_set, all_set_o)
  `FLINT_COVER(c_scan_held_by_tas, scan_valid_i && tas_valid_i && !busy_q && !clear_i)

  // Geometry the word packing needs.
  initial begin
    if (Pages % WordBits != 0) $error("flint_migration_bitmap: Pages %% WordBits != 0");
  end
endmodule
`default_nettype wire
