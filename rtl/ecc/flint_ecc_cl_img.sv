// The NAND image of one cache line on the write path (model load, refresh programs): each 64-bit
// word followed by its SEC-DED check byte, as docs/nand_model.md lays out a page (line k of a
// page is image bytes [k * ClBytes * 9/8, ...)). poison_i marks a line whose data could not be
// corrected when it was read for a copy: two bits of every word's check byte are flipped, so the
// copy reads back UNCORRECTABLE instead of passing bad data off as good. Combinational.
`default_nettype none
module flint_ecc_cl_img #(
  parameter int unsigned Words = flint_cfg_pkg::ClBytes / 8,
  // do not override
  localparam int unsigned DataBits = Words * 64,
  localparam int unsigned ImgBits  = Words * 72
) (
  input  logic [DataBits-1:0] data_i,
  input  logic                poison_i,
  output logic [ImgBits-1:0]  img_o
);
  logic [Words*8-1:0] check;
  flint_ecc_cl_enc #(
    .Words(Words)
  ) u_enc (
    .data_i (data_i),
    .check_o(check)
  );
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      img_o[w*72 +: 64] = data_i[w*64 +: 64];
      img_o[w*72+64 +: 8] = check[w*8 +: 8] ^ (poison_i ? 8'h03 : 8'h00);
    end
  end
endmodule
`default_nettype wire
