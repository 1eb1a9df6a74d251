# Runs EXE ARG with its standard output written to OUT; fails the build when EXE fails.
# (cmake -DEXE=... -DARG=... -DOUT=... -P run_to_file.cmake)
execute_process(COMMAND ${EXE} ${ARG} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EXE} ${ARG} failed: ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
