# Helpers shared by every CMakeLists.txt below the top.

# Flags for Verilating any FLINT design: lint as errors, assertions on, X varied by seed.
set(FLINT_VERILATOR_ARGS
  -Wall --assert --x-assign unique --x-initial unique
  ${CMAKE_SOURCE_DIR}/rtl/flint.vlt
  -I${CMAKE_SOURCE_DIR}/rtl/common)

# Every RTL source folder, so a top finds its submodules by module name (-y).
set(FLINT_RTL_DIRS)
foreach(dir common nand ftl bbc ecc refresh top)
  if(EXISTS ${CMAKE_SOURCE_DIR}/rtl/${dir})
    list(APPEND FLINT_RTL_DIRS -y ${CMAKE_SOURCE_DIR}/rtl/${dir})
  endif()
endforeach()

# flint_verilate(<target> TOP <module> CONFIG <cfg> [PREFIX <name>] [SOURCES ...] [ARGS ...])
# Verilates <module> (found under rtl/ by name, or in SOURCES) against the generated config
# package of <cfg> into <target>. PREFIX defaults to V<module>_<cfg>. Tracing (FST) and
# coverage are compiled in; a test turns them on at run time.
function(flint_verilate target)
  cmake_parse_arguments(FV "" "TOP;CONFIG;PREFIX" "SOURCES;ARGS" ${ARGN})
  if(NOT FV_PREFIX)
    set(FV_PREFIX V${FV_TOP}_${FV_CONFIG})
  endif()
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
  verilate(${target}
    SOURCES ${pkg} ${CMAKE_SOURCE_DIR}/rtl/flint_pkg.sv ${top_file} ${FV_SOURCES}
    TOP_MODULE ${FV_TOP}
    PREFIX ${FV_PREFIX}
    DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/${FV_PREFIX}.dir
    TRACE_FST
    COVERAGE
    VERILATOR_ARGS ${FLINT_VERILATOR_ARGS} ${FLINT_RTL_DIRS} ${FV_ARGS})
endfunction()

# flint_test(<name> SOURCES ... [LIBS ...]): a Catch2 test executable, every TEST_CASE
# registered with ctest.
function(flint_test name)
  cmake_parse_arguments(FT "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${FT_SOURCES})
  target_link_libraries(${name} PRIVATE flint_catch_main flint_tb ${FT_LIBS})
  # Warnings for our sources only: Verilator's generated code and headers are not ours.
  set_source_files_properties(${FT_SOURCES} PROPERTIES COMPILE_OPTIONS "${FLINT_WARNINGS}")
  catch_discover_tests(${name} TEST_PREFIX "${name}: " PROPERTIES TIMEOUT 900)
endfunction()
