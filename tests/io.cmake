# Snapshot I/O (HDF5), its command-line use, and the readers' fuzz corpora replayed (label "io").
gc_add_test(test_snapshot_hdf5 test_snapshot_hdf5.c)
set_tests_properties(test_snapshot_hdf5 PROPERTIES LABELS "io")

if(GC_HAVE_HDF5)
  # Broken snapshots are made at test time by a small generator over libhdf5 (found again
  # here: imported targets are visible only in the folder that found them).
  find_package(HDF5 COMPONENTS C QUIET)
  add_executable(make_bad_snapshots ${CMAKE_CURRENT_SOURCE_DIR}/io/make_bad_snapshots.c)
  target_link_libraries(make_bad_snapshots PRIVATE gc_io ZLIB::ZLIB)
  if(TARGET hdf5::hdf5)
    target_link_libraries(make_bad_snapshots PRIVATE hdf5::hdf5)
  else()
    target_include_directories(make_bad_snapshots PRIVATE ${HDF5_C_INCLUDE_DIRS})
    target_link_libraries(make_bad_snapshots PRIVATE ${HDF5_C_LIBRARIES})
  endif()
  add_test(NAME test_snapshots_cli
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/test_snapshots_cli.sh
                   $<TARGET_FILE:galaxy> $<TARGET_FILE:make_bad_snapshots>)
  set_tests_properties(test_snapshots_cli PROPERTIES LABELS "io" TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")

  # A restart is the run it continues, to the bit (leapfrog, hermite4, hermite6), and a
  # snapshot brings its settings back.
  add_test(NAME test_restarts
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/test_restarts.sh $<TARGET_FILE:galaxy>)
  set_tests_properties(test_restarts PROPERTIES LABELS "io" TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")

  # Output settings do not change a Hermite run; --save/--data keep double precision;
  # snapshot names sort in time order; the log's time units follow the model.
  add_test(NAME test_outputs
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/test_outputs.sh $<TARGET_FILE:galaxy>)
  set_tests_properties(test_outputs PROPERTIES LABELS "io" TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")

  # Outputs onto FIFOs, devices and links (written into, never replaced); two outputs
  # naming one file refused.
  add_test(NAME test_output_targets
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/test_output_targets.sh $<TARGET_FILE:galaxy>)
  set_tests_properties(test_output_targets PROPERTIES LABELS "io" TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")

  # The snapshots of a real run, read with h5py and checked against the run (skipped
  # without h5py).
  add_test(NAME test_snapshots_h5py
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/with_python.sh "h5py numpy"
                   check_snapshots.py $<TARGET_FILE:galaxy>
                   ${CMAKE_CURRENT_BINARY_DIR}/tmp/snapshots_h5py
                   $<TARGET_FILE:make_bad_snapshots>)
  set_tests_properties(test_snapshots_h5py PROPERTIES LABELS "io" SKIP_RETURN_CODE 77)

  # The snapshots loaded with pynbody: time in Myr, masses in solar masses, families
  # (skipped without pynbody).
  add_test(NAME test_snapshots_pynbody
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/with_python.sh "pynbody h5py numpy"
                   check_snapshots_pynbody.py $<TARGET_FILE:galaxy>
                   ${CMAKE_CURRENT_BINARY_DIR}/tmp/snapshots_pynbody)
  set_tests_properties(test_snapshots_pynbody PROPERTIES LABELS "io" SKIP_RETURN_CODE 77
    TIMEOUT 300)
endif()

if(NOT GC_HAVE_HDF5)
  # Without libhdf5: asking for snapshots is one clear error and a non-zero exit.
  add_test(NAME test_snapshots_no_hdf5
           COMMAND bash -c "out=$(\"$0\" --snapshot-every 0.1 --steps 1 -n 64 --backend cpu 2>&1); rc=$?; echo \"$out\"; [ $rc -ne 0 ] && grep -q 'this build has no HDF5 support: install libhdf5-dev' <<<\"$out\""
                   $<TARGET_FILE:galaxy>)
  set_tests_properties(test_snapshots_no_hdf5 PROPERTIES LABELS "io")
endif()

include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz.cmake)

# The check that keeps libhdf5 off corrupt string heaps (no libhdf5 needed to test it).
gc_add_test(test_gheap_check test_gheap_check.c)
set_tests_properties(test_gheap_check PROPERTIES LABELS "io" TIMEOUT 60)
