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
    ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/tmp")
  if(GC_FUZZ)
    add_executable(fuzz_${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_${t}.c)
    target_link_libraries(fuzz_${t} PRIVATE gc_io)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
  endif()
endforeach()
