# Helpers shared by every CMakeLists.txt below the top.

# Flags for Verilating any FLINT design: lint as errors, assertions on, uninitialised state
# varied by seed (--x-initial unique costs nothing per cycle: it only runs at construction).
# --x-assign decides what an X the design or Verilator makes (a case with no arm taken, an
# index past an array) becomes: `fast` in the designs the regressions and the simulator spend
# their time in, `unique` (a seeded random value, so a dependence on it shows up as a seed that
# fails) in every block-level test; flint_verilate's XHUNT option picks it (docs/bench.md).
# --stats writes V<prefix>__stats.txt beside the generated code: Verilator's own estimate of one
# evaluation's cost, which make bench reports.
# -fno-const-bit-op-tree: Verilator 5.006's bit-op-tree optimization (V3Const) drops one of two
# negations in an XOR tree: `~((a & b) ^ c) ^ ~d` evaluates to its complement for every input
# (the same bug as verilator/verilator#4059, fixed after 5.006). A Yosys netlist of
# flint_maint_seq had one such tree in its FIFO's counter and mis-simulated (issue #24 item 6,
# docs/verification.md); RTL gets no such immunity from being hand-written, so every design is
# Verilated without that optimization. tb/common/verilator_xor_test.cpp keeps the case.
set(FLINT_VERILATOR_ARGS
  -Wall --assert --x-initial unique --stats -fno-const-bit-op-tree
  ${CMAKE_SOURCE_DIR}/rtl/flint.vlt
  -I${CMAKE_SOURCE_DIR}/rtl/common)

# Coverage instrumentation costs 2-3.5x in simulation speed (docs/bench.md), so only the
# coverage build has it: `make coverage` configures a tree of its own with FLINT_COVERAGE=ON.
option(FLINT_COVERAGE "Verilate every design with line, toggle and cover-point coverage" OFF)
# flint-sim-big (make rtl-big): the stack top at medium and paper as well (docs/build.md). Out
# of `all`, so defining it costs nothing until it is built (Verilator runs in the build).
option(FLINT_RTL_BIG "Define flint-sim-big, with the Verilated stack top at medium and paper" ON)
# flint-sim-paper and its ctest rtl_paper_fast (docs/build.md "The paper-size stack top"): the
# paper top in `all`, about 5 CPU-minutes of compile.
option(FLINT_PAPER_CTEST "Build flint-sim-paper and run the paper top's ctest in make test" ON)

# The C++ that Verilator writes: its per-cycle code (_FAST) at -O2 (as fast as -O3 here and
# quicker to compile), its construction, initial settle and trace-declaration code (_SLOW),
# which runs once, at -O0 (2.5x quicker to compile than -O1). Measured in docs/build.md.
set(FLINT_VERILATED_OPT_FAST -O2)
set(FLINT_VERILATED_OPT_SLOW -O0)
# The designs only tests run (the block-level X-hunting tests, and the stack and BBC tops'
# variants for one test each) compile their per-cycle code at -O1: half the compile time of
# -O2 for a few seconds more of test time (docs/build.md). The designs that flint-sim, the
# benches and the long regressions spend their time in keep -O2.
set(FLINT_VERILATED_OPT_QUICK -O1)
# The per-cycle code's parity and population counts (the SEC-DED syndromes: Verilator's
# VL_REDXOR_64 is __builtin_parityll) as one instruction where the target has it: x86-64 with
# POPCNT (every x86-64 processor since 2008-2009). Without it GCC folds each parity through
# shifts and XORs: about 5 % of the BBC top's instructions at small (docs/build.md, "RTL speed").
set(FLINT_VERILATED_ARCH)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-mpopcnt FLINT_HAVE_MPOPCNT)
  if(FLINT_HAVE_MPOPCNT)
    set(FLINT_VERILATED_ARCH -mpopcnt)
  endif()
endif()

# Verilator's run-time library (verilated.cpp, FST writer, coverage database, threads), compiled
# once for every design instead of once per executable. Tracing is compiled in everywhere: it
# costs nothing while no trace is open (docs/bench.md).
set(FLINT_VERILATED_RT_SOURCES
  ${VERILATOR_ROOT}/include/verilated.cpp ${VERILATOR_ROOT}/include/verilated_cov.cpp
  ${VERILATOR_ROOT}/include/verilated_fst_c.cpp ${VERILATOR_ROOT}/include/verilated_threads.cpp)
if(NOT TARGET flint_verilated_rt)
  find_package(Threads REQUIRED)
  find_package(ZLIB REQUIRED)
  add_library(flint_verilated_rt STATIC ${FLINT_VERILATED_RT_SOURCES})
  target_include_directories(flint_verilated_rt SYSTEM PUBLIC ${VERILATOR_ROOT}/include
    ${VERILATOR_ROOT}/include/vltstd)
  # VM_TRACE changes verilated.h: every translation unit that includes it must agree.
  target_compile_definitions(flint_verilated_rt PUBLIC VM_TRACE=1 VM_TRACE_FST=1 VM_TRACE_VCD=0
    VM_SC=0 PRIVATE VM_COVERAGE=1)
  target_compile_options(flint_verilated_rt PRIVATE ${FLINT_VERILATED_OPT_FAST})
  target_link_libraries(flint_verilated_rt PUBLIC Threads::Threads ZLIB::ZLIB)
endif()

# Every RTL source folder, so a top finds its submodules by module name (-y).
set(FLINT_RTL_DIRS)
foreach(dir common nand ftl bbc ecc refresh top)
  if(EXISTS ${CMAKE_SOURCE_DIR}/rtl/${dir})
    list(APPEND FLINT_RTL_DIRS -y ${CMAKE_SOURCE_DIR}/rtl/${dir})
  endif()
endforeach()

# flint_verilate(<target> TOP <module> CONFIG <cfg> [PREFIX <name>] [SOURCES ...] [ARGS ...]
#                [XHUNT] [QUICK] [COVERAGE] [UNITS <fast> <slow>])
# Verilates <module> (found under rtl/ by name, or in SOURCES) against the generated config
# package of <cfg> into a static library of its own, `vl_<PREFIX>`, and links it into <target>.
# PREFIX defaults to V<module>_<cfg>. A design used by several executables (the stack top by
# test_top and flint-sim) is Verilated and compiled once: the second call with the same PREFIX
# only links it, and must pass the same TOP, CONFIG and ARGS. Tracing (FST) is compiled in and
# turned on at run time. XHUNT: --x-assign unique instead of fast. XHUNT or QUICK: the
# per-cycle code at FLINT_VERILATED_OPT_QUICK (a design only tests run). COVERAGE: coverage even
# outside the coverage build (the coverage flow's own test needs one instrumented design).
# UNITS: at most this many translation units of per-cycle and of run-once code (flint_unity;
# default FLINT_UNITY_FAST / _SLOW), for a design of tens of MB of C++ (the paper top).
function(flint_verilate target)
  cmake_parse_arguments(FV "XHUNT;QUICK;COVERAGE" "TOP;CONFIG;PREFIX" "SOURCES;ARGS;UNITS" ${ARGN})
  set(units ${FLINT_UNITY_FAST} ${FLINT_UNITY_SLOW})
  if(FV_UNITS)
    set(units ${FV_UNITS})
  elseif(FLINT_COVERAGE OR FV_COVERAGE)
    # Coverage counters make the generated C++ about 4x larger (docs/build.md).
    set(units 12 10)
  endif()
  if(NOT FV_PREFIX)
    set(FV_PREFIX V${FV_TOP}_${FV_CONFIG})
  endif()
  set(lib vl_${FV_PREFIX})
  set(x_assign fast)
  if(FV_XHUNT)
    set(x_assign unique)
  endif()
  set(coverage)
  if(FLINT_COVERAGE OR FV_COVERAGE)
    set(coverage COVERAGE)
  endif()
  set(opt_fast ${FLINT_VERILATED_OPT_FAST} ${FLINT_VERILATED_ARCH})
  if(FV_XHUNT OR FV_QUICK)
    set(opt_fast ${FLINT_VERILATED_OPT_QUICK} ${FLINT_VERILATED_ARCH})
  endif()
  set(key "${FV_TOP};${FV_CONFIG};${FV_SOURCES};${FV_ARGS};${x_assign};${coverage};${opt_fast}")
  if(TARGET ${lib})
    get_property(prev GLOBAL PROPERTY FLINT_VERILATED_${FV_PREFIX})
    if(NOT prev STREQUAL key)
      message(FATAL_ERROR "flint_verilate: ${FV_PREFIX} Verilated twice with different "
        "settings:\n  ${prev}\n  ${key}")
    endif()
    target_link_libraries(${target} PRIVATE ${lib})
    return()
  endif()
  set_property(GLOBAL PROPERTY FLINT_VERILATED_${FV_PREFIX} "${key}")
  set(pkg ${FLINT_GEN_DIR}/${FV_CONFIG}/flint_cfg_pkg.sv)
  if(NOT EXISTS ${pkg})
    message(FATAL_ERROR "flint_verilate: no config '${FV_CONFIG}' (${pkg})")
  endif()
  set(top_file)
  foreach(dir common nand ftl bbc ecc refresh top tb)
    if(EXISTS ${CMAKE_SOURCE_DIR}/rtl/${dir}/${FV_TOP}.sv)
      set(top_file ${CMAKE_SOURCE_DIR}/rtl/${dir}/${FV_TOP}.sv)
    endif()
  endforeach()
  if(NOT top_file AND NOT FV_SOURCES)
    message(FATAL_ERROR "flint_verilate: cannot find ${FV_TOP}.sv under rtl/")
  endif()
  add_library(${lib} STATIC)
  # A design only an EXCLUDE_FROM_ALL executable uses (make bench's copies) is not built by
  # make build either.
  get_target_property(excluded ${target} EXCLUDE_FROM_ALL)
  if(excluded)
    set_target_properties(${lib} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  # Verilator runs in the build, never at configure time (Verilator's own verilate() runs it
  # at configure time to learn the generated file names, and the build then runs it again:
  # every design Verilated twice, the first time one after the other). The unity units
  # (flint_unity) need no file names at configure time, so the build's run is the only one,
  # in parallel with the rest of the build.
  set(vdir ${CMAKE_CURRENT_BINARY_DIR}/${FV_PREFIX}.dir)
  file(MAKE_DIRECTORY ${vdir})
  set(vlist ${vdir}/${FV_PREFIX}.cmake)
  set(cov_arg)
  if(coverage)
    set(cov_arg --coverage)
  endif()
  # Every Verilated stack top gets the fast power-up backdoor's public names (verif/top/
  # backdoor.vlt, docs/top.md "Power-up"); no other design, lint or synthesis sees them.
  if(FV_TOP STREQUAL "flint_top")
    list(APPEND FV_SOURCES ${CMAKE_SOURCE_DIR}/verif/top/backdoor.vlt)
  endif()
  set(srcs ${pkg} ${CMAKE_SOURCE_DIR}/rtl/flint_pkg.sv ${top_file} ${FV_SOURCES})
  # Exactly the run that verilate() would make (same flags, so the same generated code).
  set(cmd ${VERILATOR_BIN} --compiler gcc --prefix ${FV_PREFIX} --Mdir ${vdir} --make cmake
    --top ${FV_TOP} ${cov_arg} --trace-fst --cc ${FLINT_VERILATOR_ARGS} --x-assign ${x_assign}
    ${FLINT_RTL_DIRS} ${FV_ARGS} ${srcs})
  # Dependencies: Verilator's own list of the files it read (<prefix>__ver.d), turned into a
  # depfile that names only this rule's output (Ninja refuses a depfile naming other files).
  add_custom_command(OUTPUT ${vlist}
    BYPRODUCTS ${vdir}/${FV_PREFIX}.h
    COMMAND ${cmd}
    COMMAND ${CMAKE_COMMAND} -DFLINT_VDEPS_IN=${vdir}/${FV_PREFIX}__ver.d
            -DFLINT_VDEPS_OUT=${vdir}/${FV_PREFIX}.d -DFLINT_VDEPS_TARGET=${vlist}
            -P ${CMAKE_SOURCE_DIR}/cmake/flint_vdeps.cmake
    DEPENDS ${VERILATOR_BIN} ${srcs} ${CMAKE_SOURCE_DIR}/rtl/flint.vlt
            ${CMAKE_SOURCE_DIR}/cmake/flint_vdeps.cmake
    DEPFILE ${vdir}/${FV_PREFIX}.d
    COMMENT "Verilating ${FV_TOP} at ${FV_CONFIG} (${FV_PREFIX})" VERBATIM)
  flint_unity(${lib} ${FV_PREFIX} ${vdir} "${opt_fast}" ${units})
  # SYSTEM: the generated headers (a stack top's symbol table, which its fast power-up includes)
  # are not ours to warn about.
  target_include_directories(${lib} SYSTEM PUBLIC ${vdir})
  set(vm_coverage 0)
  if(coverage)
    set(vm_coverage 1)
  endif()
  target_compile_definitions(${lib} PRIVATE VM_COVERAGE=${vm_coverage})
  target_compile_options(${lib} PRIVATE ${VERILATOR_CFLAGS})
  target_link_libraries(${lib} PUBLIC flint_verilated_rt ${VERILATOR_MT_CFLAGS})
  target_link_libraries(${target} PRIVATE ${lib})
endfunction()

# flint_unity(<lib> <prefix> <dir> <fast opt> <fast units> <slow units>): the C++ Verilator writes
# for a design compiled a
# few files at a time. Verilator splits a design into many small files, each of which parses
# verilated.h again; one translation unit for up to FLINT_UNITY_BYTES of them cuts the compile
# time by about a third (docs/build.md). Per-cycle code (_FAST) and run-once code (_SLOW) stay
# apart, each at its own optimisation level. The units are written in the build, each time
# Verilator has run (cmake/flint_unity.cmake), from the list of files that run wrote; how many
# there are is fixed here: <fast units> / <slow units> at most (FLINT_UNITY_FAST / _SLOW unless
# flint_verilate's UNITS says otherwise), of which a small design fills one and leaves the rest
# empty (an empty unit compiles in milliseconds).
set(FLINT_UNITY_BYTES 2000000)
set(FLINT_UNITY_FAST 4)
set(FLINT_UNITY_SLOW 2)
function(flint_unity lib prefix vdir opt_fast fast_units slow_units)
  set(counts)
  set(outputs)
  foreach(kind FAST SLOW)
    set(n ${fast_units})
    if(kind STREQUAL "SLOW")
      set(n ${slow_units})
    endif()
    set(units)
    math(EXPR last "${n} - 1")
    foreach(k RANGE ${last})
      list(APPEND units ${vdir}/flint_unity_${kind}_${k}.cpp)
    endforeach()
    list(APPEND outputs ${units})
    list(APPEND counts -DFLINT_UNITY_${kind}=${n})
    set(opt ${FLINT_VERILATED_OPT_SLOW})
    if(kind STREQUAL "FAST")
      set(opt ${opt_fast})
    endif()
    # A unit is compiled again when Verilator has run (its list file is newer), and, through
    # the compiler's dependency file, when a file it includes changes.
    set_source_files_properties(${units} PROPERTIES COMPILE_OPTIONS "${opt}"
      OBJECT_DEPENDS ${vdir}/${prefix}.cmake)
    target_sources(${lib} PRIVATE ${units})
  endforeach()
  # Verilator's own list (<prefix>.cmake) is rewritten by every run of the Verilator rule.
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -DFLINT_UNITY_PREFIX=${prefix} -DFLINT_UNITY_LIST=${vdir}/${prefix}.cmake
            -DFLINT_UNITY_DIR=${vdir} -DFLINT_UNITY_BYTES=${FLINT_UNITY_BYTES} ${counts}
            -P ${CMAKE_SOURCE_DIR}/cmake/flint_unity.cmake
    DEPENDS ${vdir}/${prefix}.cmake ${CMAKE_SOURCE_DIR}/cmake/flint_unity.cmake
    COMMENT "Grouping ${prefix}'s generated C++ into ${prefix}.dir/flint_unity_*.cpp" VERBATIM)
endfunction()

# The testbenches' own translation units (drivers, scoreboards, test cases) at -O2 rather than
# the Release -O3: 18 % less g++ time for the same test time (docs/build.md).
set(FLINT_TEST_OPT -O2)

# flint_test(<name> SOURCES ... [LIBS ...]): a Catch2 test executable, every TEST_CASE
# registered with ctest.
function(flint_test name)
  cmake_parse_arguments(FT "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${FT_SOURCES})
  target_link_libraries(${name} PRIVATE flint_catch_main flint_tb ${FT_LIBS})
  # Warnings for our sources only: Verilator's generated code and headers are not ours. A
  # test's own code at FLINT_TEST_OPT (the models it checks against are flint_model's, at the
  # build type's level).
  set_source_files_properties(${FT_SOURCES} PROPERTIES
    COMPILE_OPTIONS "${FLINT_WARNINGS};${FLINT_TEST_OPT}")
  catch_discover_tests(${name} TEST_PREFIX "${name}: " PROPERTIES TIMEOUT 900)
endfunction()
