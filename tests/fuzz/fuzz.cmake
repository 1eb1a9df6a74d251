# Fuzz targets of the file readers and their corpora (tests/fuzz/<target>/).
#  - Every build: replay_<target> runs each corpus file once through the target's entry point
#    (no libFuzzer needed), registered with ctest, so CI catches regressions, under ASan too.
#  - -DGC_FUZZ=ON with clang: fuzz_<target> is the libFuzzer binary (README, "Fuzzing").
set(GC_FUZZ_TARGETS table)
if(GC_HAVE_HDF5)
  list(APPEND GC_FUZZ_TARGETS snapshot_hdf5)
endif()
foreach(t ${GC_FUZZ_TARGETS})
  add_executable(replay_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c
                             ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c)
  target_link_libraries(replay_${t} PRIVATE gc_io)
  add_test(NAME fuzz_corpus_${t}
           COMMAND replay_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${t})
  set_tests_properties(fuzz_corpus_${t} PROPERTIES LABELS "io;fuzz"
    ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/tmp;LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/lsan_hdf5.supp")
  if(GC_FUZZ)
    add_executable(fuzz_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c)
    target_link_libraries(fuzz_${t} PRIVATE gc_io)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
  endif()
  if(t STREQUAL "snapshot_hdf5")
    # This target counts open HDF5 identifiers itself (libhdf5 found in io.cmake).
    foreach(exe replay_${t} fuzz_${t})
      if(TARGET ${exe})
        if(TARGET hdf5::hdf5)
          target_link_libraries(${exe} PRIVATE hdf5::hdf5)
        else()
          target_include_directories(${exe} PRIVATE ${HDF5_C_INCLUDE_DIRS})
          target_link_libraries(${exe} PRIVATE ${HDF5_C_LIBRARIES})
        endif()
      endif()
    endforeach()
  endif()
endforeach()
