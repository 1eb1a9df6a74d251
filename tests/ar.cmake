# Algorithmic regularisation of close groups: the integrator alone, then the Pythagorean
# problem against a reference integration written apart from the program (tests/ar/), run
# by a Python with numpy (tests/io/with_python.sh: skipped, never passed, without one).
gc_add_test(test_ar_chain test_ar_chain.c)
add_test(NAME test_ar_pythagorean
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/with_python.sh numpy ../ar/pythagorean.py
                 $<TARGET_FILE:test_ar_chain>)
set_tests_properties(test_ar_pythagorean PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
