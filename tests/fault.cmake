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
