# Yosys script for the FuseSoC synth targets (rtl/*/flint_*.core): reads the core's files as
# edalize lists them, then generic synthesis and a cell count. The project's own flows (make
# synth, make area) map to its liberty file and price SRAM macros; this one only shows that the
# core's file list synthesizes on its own.
yosys -import
source edalize_yosys_procs.tcl
verilog_defaults -push
verilog_defaults -add -defer
set_defines
set_incdirs
read_files
set_params
verilog_defaults -pop
# flint_sram is a macro in synthesis (STYLE.md): a blackbox here too.
yosys hierarchy -check -top $top
yosys synth -top $top
yosys stat
yosys write_json $name.json
