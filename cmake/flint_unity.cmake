# The grouping of a Verilated design's C++ into a few translation units (flint_unity() in
# cmake/flint.cmake), run in the build (`cmake -P cmake/flint_unity.cmake`) each time Verilator
# has run for the design: an RTL change can rename, add or drop generated files, and the units
# must include the files of this run.
#
# flint_unity_write(<prefix> <list file> <dir> <kind> <units> <bytes>): the <kind> (FAST or SLOW)
# files that <list file> (Verilator's <prefix>.cmake) names, dealt in order into as few units
# <dir>/flint_unity_<kind>_<k>.cpp of about equal size as keep each near <bytes> (at most <units>
# of them; a design too big for that makes bigger units). The units it does not need are
# written empty, so the unit count the build knows stays fixed. A unit is rewritten only when
# its text changes.
#
# The FST trace's per-cycle code (Verilator's <prefix>__Trace__<n>.cpp, a FAST class) goes with the
# SLOW files: it runs only while a wave file is open (Verilator registers it when one opens), so
# -O0 costs nothing otherwise, and it is the largest code a design has (at paper 8.6 MB, one 67 s
# unit at -O1; docs/build.md). A run with waves on pays for it in speed.
function(flint_unity_write prefix list dir kind units unit_bytes)
  include(${list})
  set(all ${${prefix}_CLASSES_FAST} ${${prefix}_SUPPORT_FAST})
  set(trace ${all})
  list(FILTER trace INCLUDE REGEX "__Trace__[0-9]+\\.cpp$")
  if(kind STREQUAL "FAST")
    set(files ${all})
    if(trace)
      list(REMOVE_ITEM files ${trace})
    endif()
  else()
    set(files ${${prefix}_CLASSES_SLOW} ${${prefix}_SUPPORT_SLOW} ${trace})
  endif()
  set(total 0)
  foreach(f ${files})
    set(size 0)
    if(EXISTS ${f})
      file(SIZE ${f} size)
    endif()
    math(EXPR total "${total} + ${size}")
  endforeach()
  math(EXPR used "(${total} + ${unit_bytes} - 1) / ${unit_bytes}")
  if(used LESS 1)
    set(used 1)
  elseif(used GREATER units)
    set(used ${units})
  endif()
  math(EXPR share "(${total} + ${used} - 1) / ${used}")
  math(EXPR last "${used} - 1")
  set(k 0)
  set(bytes 0)
  set(text "")
  foreach(f ${files})
    set(size 0)
    if(EXISTS ${f})
      file(SIZE ${f} size)
    endif()
    if(bytes GREATER 0 AND k LESS last)
      math(EXPR grown "${bytes} + ${size}")
      if(grown GREATER share)
        file(CONFIGURE OUTPUT ${dir}/flint_unity_${kind}_${k}.cpp CONTENT "${text}" @ONLY)
        math(EXPR k "${k} + 1")
        set(bytes 0)
        set(text "")
      endif()
    endif()
    string(APPEND text "#include \"${f}\"\n")
    math(EXPR bytes "${bytes} + ${size}")
  endforeach()
  # The rest, and the units this design does not need: empty.
  while(k LESS units)
    file(CONFIGURE OUTPUT ${dir}/flint_unity_${kind}_${k}.cpp CONTENT "${text}" @ONLY)
    set(text "")
    math(EXPR k "${k} + 1")
  endwhile()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND FLINT_UNITY_PREFIX)
  foreach(kind FAST SLOW)
    flint_unity_write(${FLINT_UNITY_PREFIX} ${FLINT_UNITY_LIST} ${FLINT_UNITY_DIR} ${kind}
                      ${FLINT_UNITY_${kind}} ${FLINT_UNITY_BYTES})
    # Newer than the list file, so this rule has run (the units are compiled again anyway:
    # Verilator has just run).
    math(EXPR last "${FLINT_UNITY_${kind}} - 1")
    foreach(k RANGE ${last})
      file(TOUCH ${FLINT_UNITY_DIR}/flint_unity_${kind}_${k}.cpp)
    endforeach()
  endforeach()
endif()
