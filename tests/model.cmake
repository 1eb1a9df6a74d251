# Tests and tools of the built-in galaxy model (issue 5).
gc_add_test(test_model_galaxy ${CMAKE_CURRENT_SOURCE_DIR}/test_model_galaxy.c)
gc_add_test(test_model_stability ${CMAKE_CURRENT_SOURCE_DIR}/test_model_stability.c)
gc_add_test(test_model_large ${CMAKE_CURRENT_SOURCE_DIR}/test_model_large.c)

# Side-by-side tool for docs/model_vs_dubinski.png (tools/compare_tails.py runs it); not installed.
add_executable(compare_tails ${CMAKE_SOURCE_DIR}/tools/compare_tails.c)
target_link_libraries(compare_tails PRIVATE gc_modes)
