// FLINT types that do not depend on the configuration. Sizes live in flint_cfg_pkg, which
// scripts/gen_config.py generates from configs/<name>.toml; this package never refers to it
// (Yosys 0.23 rejects a package that refers to another), so modules take sizes as parameters
// whose defaults come from flint_cfg_pkg.
`default_nettype none
package flint_pkg;

  // Status of an accelerator response (DESIGN.md section 3). C++ mirror: model/common/types.hpp.
  typedef enum logic [2:0] {
    StatusOk            = 3'd0,
    StatusCorrected     = 3'd1,
    StatusUncorrectable = 3'd2,
    StatusOutOfRange    = 3'd3,
    StatusNotLoaded     = 3'd4
  } status_e;
  localparam int unsigned StatusWidth = 3;

  // Commands of the NAND die port (docs/nand_model.md). C++ mirror: model/nand/nand_types.hpp.
  typedef enum logic [2:0] {
    NandCmdRead       = 3'd0,  // multi-plane sense into page buffers (each plane its own block)
    NandCmdCacheRead  = 3'd1,  // page -> cache buffer, then sense the next page (ONFI 31h)
    NandCmdCacheEnd   = 3'd2,  // page -> cache buffer, no new sense (ONFI 3Fh)
    NandCmdDataOut    = 3'd3,  // stream bytes from one plane's cache buffer
    NandCmdProgram    = 3'd4,  // program one page of one plane
    NandCmdErase      = 3'd5   // erase one block of one plane
  } nand_cmd_e;
  localparam int unsigned NandCmdWidth = 3;

endpackage
`default_nettype wire
