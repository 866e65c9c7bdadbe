// One die's share of the burst-buffer controller (docs/bbc.md, "RTL: the BBC top"): its part of
// the cache request queue, the server that drains ACTIVE's lines on this die, the die's NAND
// command sequencer, SEC-DED decode of each line and the die's response FIFO.
//
// The queue is Lanes sub-banks (flint_bbc_crq_bank each), sub-bank l taking the requests of
// request lane l, so a stream walking consecutive lines of one page (all on this die) still
// appends Lanes lines a cycle: one SRAM write port a sub-bank. The server pops ACTIVE's slot from the
// sub-banks round-robin, one line a cycle, and hands it to the sequencer through a skid FIFO.
// While NEXT is sensed and this die has nothing of ACTIVE to pop, the server pre-pops up to
// PreDepth of NEXT's lines into a staging FIFO; at the move they go to the sequencer first, so
// the first data-out of the new ACTIVE goes in the cycle its cache buffers are ready instead of
// a pop-to-sequencer pipeline later (docs/bbc.md: at `small` that pipeline was 9 % of a burst).
// A credit counter bounds the lines between a pop and the response FIFO's output to Depth, so
// neither FIFO can overflow and the die never stalls a line the NAND has already sent (the
// sequencer's response has no ready).
// Readiness is per physical plane: a burst command waits only for the planes it names (the
// phantom may be programming meanwhile), a line only for its own plane's cache buffer. Every
// decoded line also leaves on the fork port in the cycle the NAND returns it (the refresh
// controller's copy of foreground reads, docs/refresh.md).
`default_nettype none
`include "flint_assert.svh"
module flint_bbc_die #(
  parameter int unsigned Lanes      = flint_cfg_pkg::Lanes,
  parameter int unsigned Slots      = 8,
  // A die's banks hold CrqDieSlack shares of the queue (docs/bbc.md, "Queue banks a die").
  parameter int unsigned SubEntries = flint_cfg_pkg::CrqDieSlack * flint_cfg_pkg::CrqEntries /
                                      (flint_cfg_pkg::Dies * flint_cfg_pkg::Lanes),
  parameter int unsigned Depth      = 8,  // lines in flight from pop to response
  parameter int unsigned PreDepth   = 2,  // NEXT's lines staged before the move
  // do not override
  localparam int unsigned SlotBits  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int unsigned IdBits    = flint_cfg_pkg::ReqIdBits,
  localparam int unsigned LPlBits   = flint_cfg_pkg::PlaneBits,     // logical plane
  localparam int unsigned LineBits  = flint_cfg_pkg::ClInPageBits,
  localparam int unsigned PayBits   = IdBits + LPlBits + LineBits,  // {id, plane, line}
  localparam int unsigned Planes    = flint_cfg_pkg::Planes,
  localparam int unsigned PPlBits   = flint_cfg_pkg::PhysPlaneBits,
  localparam int unsigned PhysPl    = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned BlockBits = flint_cfg_pkg::BlockBits,
  localparam int unsigned PageBits  = flint_cfg_pkg::PageBits,
  localparam int unsigned OffBits   = $clog2(flint_cfg_pkg::ClPerPage *
                                             flint_cfg_pkg::ClImageBytes + 1),
  localparam int unsigned Words     = flint_cfg_pkg::ClBytes / 8,
  localparam int unsigned DataBits  = Words * 64,
  localparam int unsigned LineW     = 8 * flint_cfg_pkg::ClImageBytes,
  localparam int unsigned SubCnt    = $clog2(SubEntries + 1),
  localparam int unsigned UsedBits  = $clog2(Lanes * SubEntries + 1),
  localparam int unsigned PreBits   = $clog2(PreDepth + 1)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // appends, one port a sub-bank
  input  logic [Lanes-1:0]            app_valid_i,
  output logic [Lanes-1:0]            app_ready_o,
  input  logic [Lanes*SlotBits-1:0]   app_slot_i,
  input  logic [Lanes*PayBits-1:0]    app_data_i,
  // the server: drain slot serve_slot_i while serve_en_i; each plane's physical plane
  input  logic                        serve_en_i,
  input  logic [SlotBits-1:0]         serve_slot_i,
  input  logic [Planes*PPlBits-1:0]   serve_planes_i,
  output logic                        pop_o,        // a line of serve_slot_i left the queue
  // NEXT: its slot, and the move (NEXT becomes ACTIVE this cycle)
  input  logic                        next_en_i,
  input  logic [SlotBits-1:0]         next_slot_i,
  input  logic                        move_i,
  output logic                        pre_pop_o,    // a line of next_slot_i left the queue
  output logic [PreBits-1:0]          pre_n_o,      // NEXT's lines pre-popped, this one included
  output logic                        idle_o,       // no line between the queue and the NAND
  output logic [UsedBits-1:0]         used_o,
  // burst commands (the BBC drives every die in the same cycle)
  input  logic                        bcmd_valid_i,
  output logic                        bcmd_can_o,
  input  flint_pkg::nand_cmd_e        bcmd_op_i,
  input  logic [PageBits-1:0]         bcmd_page_i,
  input  logic [Planes*PPlBits-1:0]   bcmd_planes_i,
  input  logic [Planes*BlockBits-1:0] bcmd_blocks_i,
  // the die's NAND port (flint_nand_seq); readiness per physical plane
  input  logic [PhysPl-1:0]           die_plane_idle_i,   // array idle
  input  logic [PhysPl-1:0]           die_plane_cache_i,  // cache buffer holds a readable page
  input  logic                        die_io_ready_i,
  output logic                        nand_valid_o,
  output flint_pkg::nand_cmd_e        nand_op_o,
  output logic [PageBits-1:0]         nand_page_o,
  output logic [Planes*PPlBits-1:0]   nand_planes_o,
  output logic [Planes*BlockBits-1:0] nand_blocks_o,
  output logic [PPlBits-1:0]          nand_plane_o,
  output logic [OffBits-1:0]          nand_offset_o,
  output logic [OffBits-1:0]          nand_nbytes_o,
  input  logic                        die_data_valid_i,
  input  logic [LineW-1:0]            die_data_i,
  // decoded lines, in the order this die served them
  output logic                        rsp_valid_o,
  input  logic                        rsp_ready_i,
  output logic [IdBits-1:0]           rsp_id_o,
  output logic [flint_pkg::StatusWidth-1:0] rsp_status_o,  // a flint_pkg::status_e value
  output logic [DataBits-1:0]         rsp_data_o,
  // fork: every decoded line as the NAND returns it (no ready). fork_data_o and fork_status_o
  // are the decode of die_data_i in every cycle, whoever asked for the data: the die's
  // maintenance sequencer takes its lines from them too (flint_top), so a die has one decoder.
  output logic                        fork_valid_o,
  output logic [LPlBits-1:0]          fork_lplane_o,
  output logic [LineBits-1:0]         fork_line_o,
  output logic [flint_pkg::StatusWidth-1:0] fork_status_o,
  output logic [DataBits-1:0]         fork_data_o
);
  localparam int unsigned CredBits = $clog2(Depth + 1);
  localparam int unsigned SubBits = (Lanes > 1) ? $clog2(Lanes) : 1;

  // --- the queue's sub-banks -------------------------------------------------------------------
  logic [Lanes-1:0] pop_valid, bank_rsp_valid, act_ne, nxt_ne;
  logic [SlotBits-1:0] pop_slot;
  logic [Lanes*PayBits-1:0] bank_rsp_data;
  logic [Lanes*SubCnt-1:0] bank_used;
  for (genvar k = 0; k < Lanes; k++) begin : g_sub
    logic [Slots-1:0] nonempty;
    logic unused_pop_ready;
    logic [SlotBits-1:0] unused_rsp_slot;
    flint_bbc_crq_bank #(
      .Entries(SubEntries),
      .Slots  (Slots),
      .Width  (PayBits)
    ) u_bank (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .app_valid_i(app_valid_i[k]),
      .app_ready_o(app_ready_o[k]),
      .app_slot_i (app_slot_i[k*SlotBits +: SlotBits]),
      .app_data_i (app_data_i[k*PayBits +: PayBits]),
      .pop_valid_i(pop_valid[k]),
      .pop_ready_o(unused_pop_ready),
      .pop_slot_i (pop_slot),
      .rsp_valid_o(bank_rsp_valid[k]),
      .rsp_slot_o (unused_rsp_slot),
      .rsp_data_o (bank_rsp_data[k*PayBits +: PayBits]),
      .nonempty_o (nonempty),
      .used_o     (bank_used[k*SubCnt +: SubCnt])
    );
    // From the lists' registered counts, so the choice of slot does not loop through the pop.
    assign act_ne[k] = nonempty[serve_slot_i];
    assign nxt_ne[k] = nonempty[next_slot_i];
  end
  always_comb begin
    used_o = '0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      used_o = used_o + UsedBits'(bank_used[k*SubCnt +: SubCnt]);
    end
  end

  // --- the server: one pop a cycle, round-robin over the sub-banks, within the credit --------
  // ACTIVE first; NEXT's lines only when ACTIVE has none here, the staging FIFO has room and
  // holds no lines of the last move.
  logic [CredBits-1:0] cred_q, cred_d;  // lines popped and not yet out of the response FIFO
  logic act_here, pre_room, pre_live_q, pre_pend_q, pre_pop, can_pop, pop_any;
  logic [PreBits-1:0] pre_used, pre_n_q;
  logic [Lanes-1:0] pop_gnt;
  logic [SubBits-1:0] unused_pop_idx;
  assign act_here = serve_en_i && |act_ne;
  assign pre_room = !pre_live_q && 32'(pre_used) + 32'(pre_pend_q) < PreDepth;
  assign pop_slot = act_here ? serve_slot_i : next_slot_i;
  assign can_pop = cred_q < CredBits'(Depth) && (act_here || (next_en_i && pre_room));
  flint_rr_arb #(
    .N(Lanes)
  ) u_pop_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (act_here ? act_ne : (nxt_ne & {Lanes{next_en_i}})),
    .gnt_o      (pop_gnt),
    .out_valid_o(pop_any),
    .out_ready_i(can_pop),
    .out_idx_o  (unused_pop_idx)
  );
  assign pop_valid = pop_gnt & {Lanes{can_pop}};
  assign pop_o = pop_any && can_pop && act_here;
  assign pre_pop = pop_any && can_pop && !act_here;
  assign pre_n_o = pre_n_q + PreBits'(pre_pop);
  assign pre_pop_o = pre_pop;

  // the popped payload, in the next cycle, from whichever sub-bank answered
  logic pay_valid;
  logic [PayBits-1:0] pay;
  always_comb begin
    pay_valid = |bank_rsp_valid;
    pay = '0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      if (bank_rsp_valid[k]) pay = bank_rsp_data[k*PayBits +: PayBits];
    end
  end

  logic skid_valid, skid_ready, unused_skid_in_ready;
  logic [PayBits-1:0] skid_pay;
  logic [$clog2(Depth + 1)-1:0] skid_used;
  flint_fifo #(
    .Width(PayBits),
    .Depth(Depth)
  ) u_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (pay_valid && !pre_pend_q),
    .in_ready_o (unused_skid_in_ready),
    .in_data_i  (pay),
    .out_valid_o(skid_valid),
    .out_ready_i(skid_ready),
    .out_data_o (skid_pay),
    .usage_o    (skid_used)
  );
  // NEXT's staged lines; after the move (pre_live_q) they go to the sequencer before the skid's.
  logic pre_valid, pre_ready, unused_pre_in_ready;
  logic [PayBits-1:0] pre_pay;
  flint_fifo #(
    .Width(PayBits),
    .Depth(PreDepth)
  ) u_pre (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (pay_valid && pre_pend_q),
    .in_ready_o (unused_pre_in_ready),
    .in_data_i  (pay),
    .out_valid_o(pre_valid),
    .out_ready_i(pre_ready),
    .out_data_o (pre_pay),
    .usage_o    (pre_used)
  );
  logic line_valid, line_ready;
  logic [PayBits-1:0] line_pay;
  assign line_valid = pre_live_q ? pre_valid : skid_valid;
  assign line_pay = pre_live_q ? pre_pay : skid_pay;
  assign pre_ready = pre_live_q && line_ready;
  assign skid_ready = !pre_live_q && line_ready;

  logic pop_pend_q;  // an ACTIVE pop's payload is on its way from the SRAM
  assign idle_o = !pop_pend_q && skid_used == '0 &&
                  !(pre_live_q && (pre_used != '0 || pre_pend_q));

  // --- the die's sequencer ---------------------------------------------------------------------
  logic [LPlBits-1:0] skid_plane;
  logic [LineBits-1:0] skid_line;
  assign skid_plane = line_pay[LineBits +: LPlBits];
  assign skid_line = line_pay[LineBits-1:0];
  logic seq_rsp_valid, unused_bcmd_ready;
  logic [PayBits-1:0] seq_rsp_tag;  // {id, logical plane, line} of the returned line
  logic [IdBits-1:0] seq_rsp_id;
  logic [LineW-1:0] seq_rsp_img;
  assign seq_rsp_id = seq_rsp_tag[PayBits-1 -: IdBits];
  // The arrays this burst command needs: the planes it names.
  logic [PhysPl-1:0] bcmd_mask;
  logic array_ready, cache_ready;
  logic [PPlBits-1:0] line_pplane;
  always_comb begin
    bcmd_mask = '0;
    for (int unsigned p = 0; p < Planes; p++) begin
      bcmd_mask[bcmd_planes_i[p*PPlBits +: PPlBits]] = 1'b1;
    end
  end
  assign array_ready = &(die_plane_idle_i | ~bcmd_mask);
  assign line_pplane = serve_planes_i[32'(skid_plane)*PPlBits +: PPlBits];
  assign cache_ready = die_plane_cache_i[line_pplane];
  flint_nand_seq #(
    .TagBits(PayBits)
  ) u_seq (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .bcmd_valid_i     (bcmd_valid_i),
    .bcmd_ready_o     (unused_bcmd_ready),
    .bcmd_can_o       (bcmd_can_o),
    .bcmd_op_i        (bcmd_op_i),
    .bcmd_page_i      (bcmd_page_i),
    .bcmd_planes_i    (bcmd_planes_i),
    .bcmd_blocks_i    (bcmd_blocks_i),
    .line_valid_i     (line_valid),
    .line_ready_o     (line_ready),
    .line_plane_i     (line_pplane),
    .line_idx_i       (skid_line),
    .line_tag_i       (line_pay),
    .line_rsp_valid_o (seq_rsp_valid),
    .line_rsp_tag_o   (seq_rsp_tag),
    .line_rsp_data_o  (seq_rsp_img),
    .die_array_ready_i(array_ready),
    .die_io_ready_i   (die_io_ready_i),
    .die_cache_ready_i(cache_ready),
    .nand_valid_o     (nand_valid_o),
    .nand_op_o        (nand_op_o),
    .nand_page_o      (nand_page_o),
    .nand_planes_o    (nand_planes_o),
    .nand_blocks_o    (nand_blocks_o),
    .nand_plane_o     (nand_plane_o),
    .nand_offset_o    (nand_offset_o),
    .nand_nbytes_o    (nand_nbytes_o),
    .die_data_valid_i (die_data_valid_i),
    .die_data_i       (die_data_i)
  );

  // --- SEC-DED decode: the image is Words codewords of 8 data bytes and their check byte -----
  logic [DataBits-1:0] img_data, dec_data;
  logic [Words*8-1:0] img_check;
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      img_data[w*64 +: 64] = seq_rsp_img[w*72 +: 64];
      img_check[w*8 +: 8] = seq_rsp_img[w*72+64 +: 8];
    end
  end
  flint_pkg::status_e dec_status;
  logic [Words-1:0] unused_corr, unused_uncorr;
  flint_ecc_cl_dec #(
    .Words(Words)
  ) u_dec (
    .data_i              (img_data),
    .check_i             (img_check),
    .data_o              (dec_data),
    .status_o            (dec_status),
    .word_corrected_o    (unused_corr),
    .word_uncorrectable_o(unused_uncorr)
  );

  localparam int unsigned RspBits = IdBits + flint_pkg::StatusWidth + DataBits;
  logic [RspBits-1:0] rsp_word;
  logic rsp_in_ready;
  logic [$clog2(Depth + 1)-1:0] unused_rsp_used;
  flint_fifo #(
    .Width(RspBits),
    .Depth(Depth)
  ) u_rsp (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (seq_rsp_valid),
    .in_ready_o (rsp_in_ready),
    .in_data_i  ({seq_rsp_id, flint_pkg::StatusWidth'(dec_status), dec_data}),
    .out_valid_o(rsp_valid_o),
    .out_ready_i(rsp_ready_i),
    .out_data_o (rsp_word),
    .usage_o    (unused_rsp_used)
  );
  assign {rsp_id_o, rsp_status_o, rsp_data_o} = rsp_word;
  assign fork_valid_o = seq_rsp_valid;
  assign fork_lplane_o = seq_rsp_tag[LineBits +: LPlBits];
  assign fork_line_o = seq_rsp_tag[LineBits-1:0];
  assign fork_status_o = flint_pkg::StatusWidth'(dec_status);
  assign fork_data_o = dec_data;

  assign cred_d = cred_q + CredBits'(pop_o || pre_pop) - CredBits'(rsp_valid_o && rsp_ready_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cred_q <= '0;
      pop_pend_q <= 1'b0;
      pre_pend_q <= 1'b0;
      pre_live_q <= 1'b0;
      pre_n_q <= '0;
    end else begin
      cred_q <= cred_d;
      pop_pend_q <= pop_o;
      pre_pend_q <= pre_pop;
      // Live from the move until the staged lines (and one still on its way) are gone.
      pre_live_q <= move_i || (pre_live_q && (pre_pend_q || pre_used > PreBits'(pre_ready)));
      pre_n_q <= move_i ? '0 : pre_n_o;
    end
  end

  // --- invariants ------------------------------------------------------------------------------
  `FLINT_ASSERT_IMPLY(SkidNeverFull, pay_valid && !pre_pend_q, unused_skid_in_ready)
  `FLINT_ASSERT_IMPLY(PreNeverFull, pay_valid && pre_pend_q, unused_pre_in_ready)
  // A line staged for NEXT waits for the move; the move finds the sequencer's port empty.
  `FLINT_ASSERT_IMPLY(PrePopOnlyOfNext, pre_pop, next_en_i && !pre_live_q)
  `FLINT_ASSERT_IMPLY(PayloadOnlyAfterPop, pay_valid, pop_pend_q || pre_pend_q)
  `FLINT_ASSERT_IMPLY(RspNeverDropped, seq_rsp_valid, rsp_in_ready)
  `FLINT_ASSERT(OnePopACycle, $countones(pop_valid) <= 1)
  `FLINT_ASSERT(OnePayloadACycle, $countones(bank_rsp_valid) <= 1)
  `FLINT_ASSERT_IMPLY(PopOnlyWhenServing, |pop_valid, serve_en_i || next_en_i)
endmodule
`default_nettype wire
