# Tests and tools of the built-in galaxy model (issue 5).
gc_add_test(test_model_galaxy ${CMAKE_CURRENT_SOURCE_DIR}/test_model_galaxy.c)
gc_add_test(test_model_stability ${CMAKE_CURRENT_SOURCE_DIR}/test_model_stability.c)
