// Arbiter of one die's maintenance sequencer (flint_maint_seq) between its clients
// (docs/nand_seq.md, "Clients"; in flint_top client 0 is the loader, client 1 the refresh
// controller's die). Requests go round-robin (flint_rr_arb: a stalled winner keeps the grant, so
// the sequencer sees a stable request); the rest of a transaction follows the request:
//   - the client id rides in the top flint_pkg::MaintClientIdBits of the tag while the request is
//     in the sequencer. A client uses only the low MaintClientTagBits of its tags (asserted) and
//     gets its tag back unchanged: responses are routed on those top bits and handed over with
//     them cleared. Responses pass straight through, one at a time, so a client sees its own
//     responses in the order the sequencer gives them, each once; a response waiting for a slow
//     client holds back those behind it (the sequencer holds an offered response until taken).
//   - program lines (wr_*) and read lines (rd_*) belong to the request in the sequencer's front
//     end, which takes one request at a time and finishes its beats (ProgramPage) or lines
//     (ReadPage) before it takes the next: they are routed to the client of the last granted
//     request, and only while its ProgramPage's beats or its ReadPage's lines are due.
// Purely combinational from request to sequencer (no added latency), a few flops of routing
// state. Assumes the sequencer's contract: one request at a time in its front end, a ReadPage's
// lines all before its response, a ProgramPage's beats all before its command or a
// MaintBadAddress answer; asserted here as the arbiter's routing relies on it.
`default_nettype none
`include "flint_assert.svh"
module flint_maint_arb #(
  parameter int unsigned Clients = 2,
  parameter int unsigned Lines   = flint_cfg_pkg::ClPerPage,
  // do not override
  localparam int unsigned IdxBits  = (Clients > 1) ? $clog2(Clients) : 1,
  localparam int unsigned LineBits = (Lines > 1) ? $clog2(Lines) : 1,
  localparam int unsigned DataBits = flint_cfg_pkg::ClDataBits,
  localparam int unsigned ReqW     = flint_pkg::MaintReqWidth,
  localparam int unsigned TagW     = flint_pkg::MaintTagBits,
  localparam int unsigned IdW      = flint_pkg::MaintClientIdBits
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // the clients' requests (a flint_pkg::maint_req_t a client)
  input  logic [Clients-1:0]            c_req_valid_i,
  output logic [Clients-1:0]            c_req_ready_o,
  input  logic [Clients*ReqW-1:0]       c_req_i,
  // the clients' program lines (raw data and poison, a client's slice)
  input  logic [Clients-1:0]            c_wr_valid_i,
  output logic [Clients-1:0]            c_wr_ready_o,
  input  logic [Clients*DataBits-1:0]   c_wr_data_i,
  input  logic [Clients-1:0]            c_wr_poison_i,
  // read lines to the client that asked (the payload is shared; valid says whose it is)
  output logic [Clients-1:0]            c_rd_valid_o,
  input  logic [Clients-1:0]            c_rd_ready_i,
  output logic [DataBits-1:0]           c_rd_data_o,
  output flint_pkg::status_e            c_rd_status_o,
  output logic [LineBits-1:0]           c_rd_line_o,
  output logic                          c_rd_last_o,
  // responses to the client that asked (shared payload, the tag as the client sent it)
  output logic [Clients-1:0]            c_rsp_valid_o,
  input  logic [Clients-1:0]            c_rsp_ready_i,
  output flint_pkg::maint_rsp_t         c_rsp_o,
  // the sequencer
  output logic                          s_req_valid_o,
  input  logic                          s_req_ready_i,
  output flint_pkg::maint_req_t         s_req_o,
  output logic                          s_wr_valid_o,
  input  logic                          s_wr_ready_i,
  output logic [DataBits-1:0]           s_wr_data_o,
  output logic                          s_wr_poison_o,
  input  logic                          s_rd_valid_i,
  output logic                          s_rd_ready_o,
  input  logic [DataBits-1:0]           s_rd_data_i,
  input  flint_pkg::status_e            s_rd_status_i,
  input  logic [LineBits-1:0]           s_rd_line_i,
  input  logic                          s_rd_last_i,
  input  logic                          s_rsp_valid_i,
  output logic                          s_rsp_ready_o,
  input  flint_pkg::maint_rsp_t         s_rsp_i
);
  localparam int unsigned CntBits = flint_pkg::MaintClientTagBits + 1;  // a client's in flight

  // --- requests: round-robin, the winner's id into the tag's top bits -------------------------
  logic [Clients-1:0] gnt;
  logic [IdxBits-1:0] win;
  flint_rr_arb #(.N(Clients)) u_arb (
    .clk_i, .rst_ni,
    .req_i      (c_req_valid_i),
    .gnt_o      (gnt),
    .out_valid_o(s_req_valid_o),
    .out_ready_i(s_req_ready_i),
    .out_idx_o  (win)
  );
  assign c_req_ready_o = s_req_ready_i ? gnt : '0;
  flint_pkg::maint_req_t win_req;
  always_comb begin
    win_req = c_req_i[32'(win)*ReqW +: ReqW];
    s_req_o = win_req;
    s_req_o.tag = {IdW'(win), win_req.tag[TagW-IdW-1:0]};
  end
  logic req_go;
  assign req_go = s_req_valid_o && s_req_ready_i;

  // --- the front end's transaction: whose it is, and whether its beats or lines are due -------
  logic [IdxBits-1:0] owner_q;
  logic wr_open_q, rd_open_q;
  logic [LineBits-1:0] beat_q;  // beats of the open program taken so far
  logic wr_go, rsp_go, last_beat, rsp_closes_wr;
  assign wr_go = s_wr_valid_o && s_wr_ready_i;
  assign rsp_go = s_rsp_valid_i && s_rsp_ready_o;
  assign last_beat = wr_go && 32'(beat_q) == Lines - 1;
  // A ProgramPage answered without its beats (bad address) closes its beats too.
  assign rsp_closes_wr = rsp_go && s_rsp_i.op == flint_pkg::MaintProgramPage &&
                         s_rsp_i.status == flint_pkg::MaintBadAddress;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      owner_q <= '0;
      wr_open_q <= 1'b0;
      rd_open_q <= 1'b0;
      beat_q <= '0;
    end else begin
      if (req_go) begin
        owner_q <= win;
        wr_open_q <= win_req.op == flint_pkg::MaintProgramPage;
        rd_open_q <= win_req.op == flint_pkg::MaintReadPage;
        beat_q <= '0;
      end else begin
        if (last_beat || rsp_closes_wr) wr_open_q <= 1'b0;
        if (rsp_go && s_rsp_i.op == flint_pkg::MaintReadPage) rd_open_q <= 1'b0;
        if (wr_go) beat_q <= beat_q + 1'b1;
      end
    end
  end

  // Program lines from the owner only, while its program takes beats.
  assign s_wr_valid_o = wr_open_q && c_wr_valid_i[owner_q];
  assign s_wr_data_o = c_wr_data_i[32'(owner_q)*DataBits +: DataBits];
  assign s_wr_poison_o = c_wr_poison_i[owner_q];
  always_comb begin
    for (int unsigned i = 0; i < Clients; i++) begin
      c_wr_ready_o[i] = wr_open_q && s_wr_ready_i && 32'(owner_q) == i;
    end
  end

  // Read lines to the owner.
  always_comb begin
    for (int unsigned i = 0; i < Clients; i++) c_rd_valid_o[i] = s_rd_valid_i && 32'(owner_q) == i;
  end
  assign s_rd_ready_o = c_rd_ready_i[owner_q];
  assign c_rd_data_o = s_rd_data_i;
  assign c_rd_status_o = s_rd_status_i;
  assign c_rd_line_o = s_rd_line_i;
  assign c_rd_last_o = s_rd_last_i;

  // --- responses: to the client named in the tag's top bits, those bits cleared ----------------
  logic [IdW-1:0] rsp_id;
  assign rsp_id = s_rsp_i.tag[TagW-1 -: IdW];
  always_comb begin
    c_rsp_valid_o = '0;
    for (int unsigned i = 0; i < Clients; i++) c_rsp_valid_o[i] = s_rsp_valid_i && 32'(rsp_id) == i;
    c_rsp_o = s_rsp_i;
    c_rsp_o.tag = {{IdW{1'b0}}, s_rsp_i.tag[TagW-IdW-1:0]};
  end
  assign s_rsp_ready_o = (32'(rsp_id) < Clients) && c_rsp_ready_i[IdxBits'(rsp_id)];

  // --- invariants ------------------------------------------------------------------------------
`ifndef SYNTHESIS
  initial begin
    if (Clients > (1 << IdW)) $fatal(1, "%m: more clients than flint_pkg::MaintClientIdBits name");
  end
  // Requests taken and not yet answered, a client.
  logic [Clients*CntBits-1:0] out_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_q <= '0;
    end else begin
      for (int unsigned i = 0; i < Clients; i++) begin
        out_q[i*CntBits +: CntBits] <= out_q[i*CntBits +: CntBits] +
                                       CntBits'(req_go && 32'(win) == i) -
                                       CntBits'(rsp_go && 32'(rsp_id) == i);
      end
    end
  end
  for (genvar i = 0; i < Clients; i++) begin : g_client_checks
    flint_pkg::maint_req_t c_req;
    assign c_req = c_req_i[i*ReqW +: ReqW];
    // The client's part: tags in the low bits, payloads held while offered.
    `FLINT_ASSERT_IMPLY(ClientTagFits, c_req_valid_i[i], c_req.tag[TagW-1 -: IdW] == '0)
    `FLINT_ASSERT_IMPLY(ClientReqStable, $past(c_req_valid_i[i] && !c_req_ready_o[i]),
                        c_req_valid_i[i] && $stable(c_req))
    `FLINT_ASSERT_IMPLY(ClientBeatStable, $past(c_wr_valid_i[i] && !c_wr_ready_o[i]),
                        c_wr_valid_i[i] && $stable(c_wr_data_i[i*DataBits +: DataBits]) &&
                        $stable(c_wr_poison_i[i]))
    // Ours: a response only to a client with a request in flight; a read line only to the
    // client whose read is open; a client's response held until taken.
    `FLINT_ASSERT_IMPLY(RspHasRequest, c_rsp_valid_o[i], out_q[i*CntBits +: CntBits] != '0)
    `FLINT_ASSERT_IMPLY(LineToReader, c_rd_valid_o[i], rd_open_q && 32'(owner_q) == i)
    `FLINT_ASSERT_IMPLY(ClientRspStable, $past(c_rsp_valid_o[i] && !c_rsp_ready_i[i]),
                        c_rsp_valid_o[i] && $stable(c_rsp_o))
    `FLINT_COVER(c_client_rsp, c_rsp_valid_o[i] && c_rsp_ready_i[i])
  end
  // One grant at a time; a request only when the front end has closed the last one's beats and
  // lines (the sequencer's one-at-a-time front end, which the routing relies on).
  `FLINT_ASSERT(OneGrant, $onehot0(c_req_ready_o))
  `FLINT_ASSERT_IMPLY(GrantOnlyClosed, req_go, !wr_open_q && !rd_open_q)
  `FLINT_ASSERT_IMPLY(RspKnownClient, s_rsp_valid_i, 32'(rsp_id) < Clients)
  `FLINT_ASSERT_IMPLY(BeatsOnlyOpen, s_wr_ready_i, wr_open_q)
  `FLINT_ASSERT_IMPLY(LinesOnlyOpen, s_rd_valid_i, rd_open_q)
  `FLINT_ASSERT_IMPLY(ReadAnswerCloses, rsp_go && s_rsp_i.op == flint_pkg::MaintReadPage,
                      rd_open_q && !s_rd_valid_i)
  `FLINT_COVER(c_clients_contend, $countones(c_req_valid_i) > 1)
  `FLINT_COVER(c_rsp_held, s_rsp_valid_i && !s_rsp_ready_o)
`endif
endmodule
`default_nettype wire
