# Fault injection (label "fault"): a disk that fills up, signals, hostile inputs. The small
# disk is an LD_PRELOAD shim (tests/fault/write_fault.c), so the tests run where mounting
# a tmpfs is not allowed.
find_package(Threads REQUIRED)
add_library(gc_write_fault SHARED ${CMAKE_CURRENT_SOURCE_DIR}/fault/write_fault.c)
target_link_libraries(gc_write_fault PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
if(GC_HAVE_HDF5)
  add_test(NAME test_disk_full
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fault/test_disk_full.sh
                   $<TARGET_FILE:galaxy> $<TARGET_FILE:gc_write_fault>)
  set_tests_properties(test_disk_full PROPERTIES LABELS "fault" TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
endif()

# SIGINT, SIGTERM, SIGUSR1 at random moments (tests/fault/test_signals.py): 24 write-heavy runs,
# two headless movies, a second signal, and (with MPI) a run over two ranks.
find_package(Python3 COMPONENTS Interpreter)
if(GC_HAVE_HDF5 AND Python3_FOUND)
  set(gc_signals_env "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
  set(gc_signals_mpi)
  if(GC_HAVE_MPI)
    set(gc_signals_mpi ${GC_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})
    list(APPEND gc_signals_env ${GC_MPI_TEST_ENV})
  endif()
  add_test(NAME test_signals
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/fault/test_signals.py
                   $<TARGET_FILE:galaxy> ${gc_signals_mpi})
  set_tests_properties(test_signals PROPERTIES LABELS "fault" TIMEOUT 600
    ENVIRONMENT "${gc_signals_env}")
else()
  add_test(NAME test_signals COMMAND sh -c "echo 'SKIP: needs HDF5 and python3'; exit 77")
  set_tests_properties(test_signals PROPERTIES LABELS "fault" SKIP_RETURN_CODE 77)
endif()

# Runs that cannot finish soon: the estimate before the run, progress, the memory refusal.
add_test(NAME test_big_runs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fault/test_big_runs.sh $<TARGET_FILE:galaxy>)
set_tests_properties(test_big_runs PROPERTIES LABELS "fault" TIMEOUT 400
  ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
