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

  // FTL block relocation table (docs/ftl.md). C++ mirror: model/ftl/ftl_types.hpp.
  // Commands of the relocation table's command port.
  typedef enum logic [2:0] {
    RelocCmdAlloc   = 3'd0,  // reserve a free block on the phantom plane of (die, logical block)
    RelocCmdCommit  = 3'd1,  // point the logical block at its reserved (now copied) block
    RelocCmdRelease = 3'd2,  // a vacated block after its erase, or a reservation given up: free
    RelocCmdMarkBad = 3'd3,  // take a block out of use for good
    RelocCmdQuery   = 3'd4   // state and logical owner of a physical block
  } reloc_cmd_e;
  localparam int unsigned RelocCmdWidth = 3;

  // Outcome of a relocation-table command.
  typedef enum logic [2:0] {
    FtlOk         = 3'd0,
    FtlOutOfRange = 3'd1,  // a die, plane or block field past the geometry
    FtlNoFree     = 3'd2,  // no free block on the plane the copy has to go to
    FtlBusy       = 3'd3,  // a relocation of this (die, logical block) is already reserved
    FtlWrongState = 3'd4   // the physical block is not in a state the command applies to
  } ftl_status_e;
  localparam int unsigned FtlStatusWidth = 3;

  // State of one physical block in the relocation table.
  typedef enum logic [2:0] {
    BlkFree     = 3'd0,  // erased and good: in the free-block pool
    BlkMapped   = 3'd1,  // backs exactly one logical block
    BlkReserved = 3'd2,  // taken from the pool for a copy in progress
    BlkVacated  = 3'd3,  // no longer mapped, not yet erased
    BlkBad      = 3'd4   // never used again
  } blk_state_e;
  localparam int unsigned BlkStateWidth = 3;

  // Why a refresh die halted (err_code_o of flint_refresh_die and flint_refresh_inplace_die;
  // RefreshErrNone while err_o is low). The C++ side prints the raw value only (tb/top).
  typedef enum logic [2:0] {
    RefreshErrNone    = 3'd0,
    RefreshErrReloc   = 3'd1,  // the relocation table refused a command or answered for the
                               // wrong plane, or the sequencer refused an address
    RefreshErrProgram = 3'd2,  // a program into the phantom (in place: into the block) failed
    RefreshErrErase   = 3'd3,  // an erase of the source's (in place: the refreshed) block failed
    RefreshErrSource  = 3'd4,  // the source plane is not one whole logical plane
    RefreshErrNoSpare = 3'd5   // a block to copy into found the phantom plane without a free
                               // good block (its bad blocks took the room: docs/refresh.md Q4)
  } refresh_err_e;

  // Why a model load stopped (err_code_o of flint_loader; LoadErrNone while err_o is low).
  typedef enum logic [1:0] {
    LoadErrNone    = 2'd0,
    LoadErrBursts  = 2'd1,  // more bursts than the stack holds: refused before anything is written
    LoadErrErase   = 2'd2,  // an erase of the load's blocks failed
    LoadErrProgram = 2'd3   // a program of the load's pages failed
  } load_err_e;
  localparam int unsigned RefreshErrWidth = 3;

  // The phase of a FLINT refresh die's step (flint_refresh_step; phase_o of flint_refresh_die,
  // rf_phase_o of flint_top, 4 bits a die). The C++ side names the values it tests (tb/top).
  typedef enum logic [3:0] {
    RefreshOff    = 4'd0,  // not enabled (no model loaded, or Mode 2)
    RefreshChoose = 4'd1,  // choosing the source plane S
    RefreshQuery  = 4'd2,  // asking the relocation table for S's blocks
    RefreshAlloc  = 4'd3,  // a target block on the phantom P for every live logical block
    RefreshCopy   = 4'd4,  // pages forked and scrubbed into the program queue, programmed into P
    RefreshCommit = 4'd5,  // every block committed: P serves S's logical plane
    RefreshSettle = 4'd6,  // the stripe table's translation settles
    RefreshVacate = 4'd7,  // until no burst in the buffers reads S
    RefreshErase  = 4'd8,  // S's blocks erased, released, their read counts reset
    RefreshHalt   = 4'd9   // an error (err_code_o names it)
  } refresh_phase_e;
  localparam int unsigned RefreshPhaseWidth = 4;

  // NAND maintenance sequencer of one die (rtl/nand/flint_maint_seq.sv, docs/nand_seq.md): its
  // page-level transactions. Address fields are wide enough for every config (paper: 6 plane,
  // 8 block, 10 page bits); the sequencer checks its config fits and answers an address past
  // its die's geometry MaintBadAddress without touching the die. C++ mirror:
  // model/common/types.hpp.
  typedef enum logic [1:0] {
    MaintReadPage    = 2'd0,  // one page out through SEC-DED, a line a beat, status per line
    MaintProgramPage = 2'd1,  // the page's lines in (raw data), ECC-encoded inside, programmed
    MaintEraseBlock  = 2'd2   // one block of one plane
  } maint_op_e;
  localparam int unsigned MaintOpWidth = 2;
  localparam int unsigned MaintPlaneBits = 8;
  localparam int unsigned MaintBlockBits = 16;
  localparam int unsigned MaintPageBits = 16;
  // A request's tag, echoed in its response: program and erase responses come back in the order
  // their planes finish, not in request order (one outstanding program or erase a plane).
  localparam int unsigned MaintTagBits = 8;
  // flint_maint_arb (a die's clients in front of one sequencer) names the client in the top
  // MaintClientIdBits of the tag while a request is in the sequencer: a client uses only the low
  // MaintClientTagBits (the top bits zero) and gets its tag back as it sent it.
  localparam int unsigned MaintClientIdBits = 1;
  localparam int unsigned MaintClientTagBits = MaintTagBits - MaintClientIdBits;

  // A request: tag, physical plane, block, page (page unused by EraseBlock). First field = MSB.
  typedef struct packed {
    logic [MaintTagBits-1:0]   tag;
    maint_op_e                 op;
    logic [MaintPlaneBits-1:0] plane;
    logic [MaintBlockBits-1:0] block;
    logic [MaintPageBits-1:0]  page;
  } maint_req_t;
  localparam int unsigned MaintReqWidth = MaintTagBits + MaintOpWidth + MaintPlaneBits +
                                          MaintBlockBits + MaintPageBits;

  // How a request ended. A read's status is its worst line (every line is returned anyway).
  typedef enum logic [2:0] {
    MaintOk            = 3'd0,
    MaintCorrected     = 3'd1,  // ReadPage: some line corrected, none uncorrectable
    MaintUncorrectable = 3'd2,  // ReadPage: some line uncorrectable (its data as read)
    MaintProgramFail   = 3'd3,  // ProgramPage: the die's status said FAIL
    MaintEraseFail     = 3'd4,  // EraseBlock: the die's status said FAIL
    MaintBadAddress    = 3'd5,  // plane, block or page past the die: nothing issued
    MaintBadOp         = 3'd6   // an op none of the three: nothing issued
  } maint_status_e;
  localparam int unsigned MaintStatusWidth = 3;

  // A response: the request's tag, op and address echoed, and its status. First field = MSB.
  typedef struct packed {
    logic [MaintTagBits-1:0]   tag;
    maint_op_e                 op;
    maint_status_e             status;
    logic [MaintPlaneBits-1:0] plane;
    logic [MaintBlockBits-1:0] block;
    logic [MaintPageBits-1:0]  page;
  } maint_rsp_t;
  localparam int unsigned MaintRspWidth = MaintTagBits + MaintOpWidth + MaintStatusWidth +
                                          MaintPlaneBits + MaintBlockBits + MaintPageBits;

endpackage
`default_nettype wire
