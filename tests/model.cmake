# Tests of the built-in galaxy model (its comparison tool is built in tools/).
gc_add_test(test_model_galaxy ${CMAKE_CURRENT_SOURCE_DIR}/test_model_galaxy.c)
gc_add_test(test_model_stability ${CMAKE_CURRENT_SOURCE_DIR}/test_model_stability.c)
gc_add_test(test_model_large ${CMAKE_CURRENT_SOURCE_DIR}/test_model_large.c)

# The spheres the tree is measured on, and the split of a body set into more bodies.
gc_add_test(test_model_spheres ${CMAKE_CURRENT_SOURCE_DIR}/test_model_spheres.c)
