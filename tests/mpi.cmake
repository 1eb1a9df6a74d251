# MPI tests (GC_MPI): the communication layer and whole runs of galaxy over 2 and 3 ranks of
# the CPU backend, compared with the one-rank run. Open MPI needs --oversubscribe for more
# ranks than cores and --allow-run-as-root in CI containers.
if(NOT GC_HAVE_MPI)
  return()
endif()
set(GC_MPIEXEC ${MPIEXEC_EXECUTABLE})
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE gc_mpiexec_version
                ERROR_QUIET)
if(gc_mpiexec_version MATCHES "Open MPI|OpenRTE")
  list(APPEND GC_MPIEXEC --oversubscribe --allow-run-as-root)
  # One host: launch without ssh (a container may have none), and TCP over the loopback
  # only: Open MPI 5 otherwise prints "Unable to find reachable pairing between local and
  # remote interfaces" in every run where the host's other interfaces do not route to each
  # other (containers, chroots; docs/usage.md, "Many GPUs").
  set(GC_MPI_LAUNCH_ENV "OMPI_MCA_plm=isolated" "OMPI_MCA_btl_tcp_if_include=lo")
endif()
# Open MPI's own allocations at MPI_Init are never freed: LeakSanitizer would report them in
# every sanitizer build (the suppression file says what is suppressed). It unloads its
# components at MPI_Finalize, after which their allocations show as "<unknown module>",
# which no suppression can name: in sanitizer builds the ranks (not mpiexec) get a dlclose
# that keeps them loaded, after the ASan runtime, which must come first.
set(GC_MPI_TEST_ENV ${GC_MPI_LAUNCH_ENV}
  "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/mpi/lsan_openmpi.supp:print_suppressions=0"
  "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
if(GC_SANITIZE)
  if(gc_mpiexec_version MATCHES "Open MPI|OpenRTE")
    add_library(gc_no_dlclose SHARED mpi/no_dlclose.c)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE gc_libasan OUTPUT_STRIP_TRAILING_WHITESPACE)
    list(APPEND GC_MPIEXEC -x LD_PRELOAD=${gc_libasan}:$<TARGET_FILE:gc_no_dlclose>)
  else()
    message(WARNING "sanitizer build with a non-Open MPI launcher: the MPI tests may report "
                    "the MPI library's leaks")
  endif()
endif()

# gc_add_mpi_test(name timeout): mpi/<name>.c, run on 2 and 3 ranks as <name>_np2, _np3.
function(gc_add_mpi_test name timeout)
  add_executable(${name} mpi/${name}.c)
  target_link_libraries(${name} PRIVATE gc_modes gc_check)
  foreach(np 2 3)
    add_test(NAME ${name}_np${np}
             COMMAND ${GC_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} ${np} $<TARGET_FILE:${name}>)
    set_tests_properties(${name}_np${np} PROPERTIES
      LABELS mpi TIMEOUT ${timeout} SKIP_RETURN_CODE 77 ENVIRONMENT "${GC_MPI_TEST_ENV}")
  endforeach()
endfunction()

gc_add_mpi_test(test_comm_mpi 60)

# A simulation over the ranks against the same one on one rank, in one program: positions,
# energies, momenta and Hermite block-step schedules (leapfrog, hermite4, hermite6, N < K).
gc_add_mpi_test(test_sim_mpi 120)

# Whole runs of galaxy on 1, 2 and 3 ranks (tests/mpi/test_mpi_runs.sh says what each checks).
add_executable(compare_bodies mpi/compare_bodies.c)
target_link_libraries(compare_bodies PRIVATE gc_io)
# Part fail preloads it into one rank, whose first MPI_Allgatherv then fails.
add_library(gc_fail_exchange SHARED mpi/fail_exchange.c)
target_link_libraries(gc_fail_exchange PRIVATE MPI::MPI_C)
foreach(part agree fail small view)
  add_test(NAME test_mpi_${part}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi/test_mpi_runs.sh ${part}
                   $<TARGET_FILE:galaxy> $<TARGET_FILE:compare_bodies> ${GC_HAVE_HDF5}
                   $<TARGET_FILE:gc_fail_exchange> ${GC_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})
  set_tests_properties(test_mpi_${part} PROPERTIES
    LABELS mpi TIMEOUT 300 SKIP_RETURN_CODE 77 ENVIRONMENT "${GC_MPI_TEST_ENV}")
endforeach()
