// The choice of the next source plane of one refresh die (docs/refresh.md, "The refresh
// controller as built"), and the read-counter trip events that steer it. Among the planes not yet
// a source this pass (all if none is left), never the phantom, the first after the last source
// that is due, else the first after it. Looked for one plane a cycle from enter_i on, a pass for
// due planes and then one for any (up to 2 x PhysPl cycles, once a rotation step): the whole
// rotate-and-prioritize in one cycle was the die's longest logic path at paper. hit_o names the
// plane (pick_o) in the cycle it is found; the pass and due state move on with it.
`default_nettype none
`include "flint_assert.svh"
module flint_refresh_choose #(
  // do not override
  localparam int unsigned Planes  = flint_cfg_pkg::Planes,
  localparam int unsigned PhysPl  = flint_cfg_pkg::PhysPlanes,
  localparam int unsigned PPlBits = flint_cfg_pkg::PhysPlaneBits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // the rotation: choosing from the next cycle (enter_i), choosing (active_i), the phantom
  input  logic               enter_i,
  input  logic               active_i,
  input  logic [PPlBits-1:0] phantom_i,
  output logic               hit_o,
  output logic [PPlBits-1:0] pick_o,
  // read-counter trip events of this die (the block does not matter: whole planes are copied)
  input  logic               evt_valid_i,
  input  logic [PPlBits-1:0] evt_plane_i,
  input  logic               evt_limit_i,
  // statistics and the alarm
  output logic [31:0]        due_o,          // due events seen
  output logic [31:0]        limit_o,        // limit events seen
  output logic               alarm_o         // a block reached the disturb limit
);
  logic [PPlBits-1:0] rr_q;             // the last source
  logic [PhysPl-1:0] due_q, due_d, visited_q;
  logic [PPlBits-1:0] ch_p_q, ch_n_q;   // the plane looked at; planes looked at this pass
  logic ch_pass_q;                      // 0: due planes only; 1: any candidate
  logic [31:0] due_cnt_q, limit_cnt_q;
  logic alarm_q;

  logic [PhysPl-1:0] cand;
  always_comb begin
    cand = ~visited_q;
    cand[phantom_i] = 1'b0;
    if (cand == '0) begin
      cand = '1;
      cand[phantom_i] = 1'b0;
    end
  end
  logic ch_hit;
  logic [PPlBits-1:0] pick, rr_next, ch_next;
  assign rr_next = (32'(rr_q) + 1 >= PhysPl) ? '0 : rr_q + 1'b1;
  assign ch_next = (32'(ch_p_q) + 1 >= PhysPl) ? '0 : ch_p_q + 1'b1;
  assign ch_hit = active_i && cand[ch_p_q] && (ch_pass_q || due_q[ch_p_q]);
  assign pick = ch_p_q;

  // The scan: from the plane after the last source, due planes first.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ch_p_q <= '0;
      ch_n_q <= '0;
      ch_pass_q <= 1'b0;
    end else if (enter_i) begin
      ch_p_q <= rr_next;
      ch_n_q <= '0;
      ch_pass_q <= 1'b0;
    end else if (active_i && !ch_hit) begin
      if (32'(ch_n_q) + 1 >= PhysPl) begin
        ch_p_q <= rr_next;
        ch_n_q <= '0;
        ch_pass_q <= 1'b1;
      end else begin
        ch_p_q <= ch_next;
        ch_n_q <= ch_n_q + 1'b1;
      end
    end
  end
  // The pass: the planes that were a source, the last one.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rr_q <= PPlBits'(Planes);
      visited_q <= '0;
    end else if (ch_hit) begin
      rr_q <= pick;
      if ((~visited_q & ~(PhysPl'(1) << phantom_i)) == '0) visited_q <= PhysPl'(1) << pick;
      else visited_q <= visited_q | (PhysPl'(1) << pick);
    end
  end
  // Due planes: set by a due event, cleared when chosen.
  always_comb begin
    due_d = due_q;
    if (evt_valid_i && !evt_limit_i) due_d[evt_plane_i] = 1'b1;
    if (ch_hit) due_d[pick] = 1'b0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      due_q <= '0;
      due_cnt_q <= '0;
      limit_cnt_q <= '0;
      alarm_q <= 1'b0;
    end else begin
      due_q <= due_d;
      if (evt_valid_i) begin
        if (evt_limit_i) begin
          alarm_q <= 1'b1;
          limit_cnt_q <= limit_cnt_q + 1'b1;
        end else begin
          due_cnt_q <= due_cnt_q + 1'b1;
        end
      end
    end
  end

  assign hit_o = ch_hit;
  assign pick_o = pick;
  assign due_o = due_cnt_q;
  assign limit_o = limit_cnt_q;
  assign alarm_o = alarm_q;

  // The second pass of the scan always finds a candidate.
  `FLINT_ASSERT_IMPLY(ChooseFinds, active_i && ch_pass_q && 32'(ch_n_q) + 1 >= PhysPl, ch_hit)
  // The hot-block path: due events steering the choice of source.
  `FLINT_COVER(c_due_event, evt_valid_i && !evt_limit_i)
  `FLINT_COVER(c_due_steers_choice, active_i && |(cand & due_q))
  `FLINT_COVER(c_limit_event, evt_valid_i && evt_limit_i)
endmodule
`default_nettype wire
