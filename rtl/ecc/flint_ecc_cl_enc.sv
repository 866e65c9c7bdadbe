// Cache-line (or any multiple of 64 bits) SEC-DED encoder: Words independent (72,64) Hsiao
// codes in parallel. Layout (docs/ecc.md): word w is data_i[w*64 +: 64], little-endian (line
// byte b is data_i[b*8 +: 8]); its check byte is check_o[w*8 +: 8], which the NAND stores in
// spare byte (first word of the line in its page) + w. Combinational, no state.
`default_nettype none
module flint_ecc_cl_enc #(
  parameter int unsigned Words = flint_cfg_pkg::ClBytes / 8,
  // do not override
  localparam int unsigned DataBits = Words * 64,
  localparam int unsigned CheckBits = Words * 8
) (
  // line from the write path
  input  logic [DataBits-1:0]  data_i,
  // one check byte per word
  output logic [CheckBits-1:0] check_o
);
  for (genvar w = 0; w < Words; w++) begin : g_word
    flint_secded_enc u_enc (
      .data_i (data_i[w*64 +: 64]),
      .check_o(check_o[w*8 +: 8])
    );
  end
endmodule
`default_nettype wire
