# Verilator's dependency file (<prefix>__ver.d: every generated file, a colon, every file it
# read) as a depfile for the build's Verilator rule (cmake/flint.cmake, flint_verilate): the
# same inputs, with the rule's one output as the only target, since Ninja refuses a depfile
# that names files the rule does not declare.
#   cmake -DFLINT_VDEPS_IN=<__ver.d> -DFLINT_VDEPS_OUT=<depfile> -DFLINT_VDEPS_TARGET=<output>
#         -P flint_vdeps.cmake
file(READ ${FLINT_VDEPS_IN} text)
string(FIND "${text}" " : " colon)
if(colon LESS 0)
  message(FATAL_ERROR "${FLINT_VDEPS_IN}: no ' : ' between targets and inputs")
endif()
string(SUBSTRING "${text}" ${colon} -1 inputs)
file(WRITE ${FLINT_VDEPS_OUT} "${FLINT_VDEPS_TARGET}${inputs}")
