# The grouping of a Verilated design's C++ into a few translation units (flint_unity() in
# cmake/flint.cmake). Used twice: at configure time, to fix how many units a design has and
# write them, and at build time (`cmake -P cmake/flint_unity.cmake`) each time Verilator has run
# again, because an RTL change can rename, add or drop generated files and the units must
# include the files of this run, not of the one cmake saw (the build would otherwise compile a
# mix of old and new files and fail until cmake had been re-run once for every design).
#
# flint_unity_write(<prefix> <list file> <dir> <kind> <units>): the <kind> (FAST or SLOW) files
# that <list file> (Verilator's <prefix>.cmake) names, dealt in order into exactly <units> units
# <dir>/flint_unity_<kind>_<k>.cpp of about equal size. A unit is rewritten only when its text
# changes.
function(flint_unity_write prefix list dir kind units)
  include(${list})
  set(files ${${prefix}_CLASSES_${kind}} ${${prefix}_SUPPORT_${kind}})
  set(total 0)
  foreach(f ${files})
    set(size 0)
    if(EXISTS ${f})
      file(SIZE ${f} size)
    endif()
    math(EXPR total "${total} + ${size}")
  endforeach()
  math(EXPR share "(${total} + ${units} - 1) / ${units}")
  set(k 0)
  set(bytes 0)
  set(text "")
  foreach(f ${files})
    set(size 0)
    if(EXISTS ${f})
      file(SIZE ${f} size)
    endif()
    math(EXPR last "${units} - 1")
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
  # The rest, and any unit the files no longer fill: empty, so the unit count stays fixed.
  while(k LESS units)
    file(CONFIGURE OUTPUT ${dir}/flint_unity_${kind}_${k}.cpp CONTENT "${text}" @ONLY)
    set(text "")
    math(EXPR k "${k} + 1")
  endwhile()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND FLINT_UNITY_PREFIX)
  foreach(kind FAST SLOW)
    flint_unity_write(${FLINT_UNITY_PREFIX} ${FLINT_UNITY_LIST} ${FLINT_UNITY_DIR} ${kind}
                      ${FLINT_UNITY_${kind}})
    # Newer than the list file, so this rule has run (the units are compiled again anyway:
    # Verilator has just run).
    math(EXPR last "${FLINT_UNITY_${kind}} - 1")
    foreach(k RANGE ${last})
      file(TOUCH ${FLINT_UNITY_DIR}/flint_unity_${kind}_${k}.cpp)
    endforeach()
  endforeach()
endif()
