# Algorithmic regularisation of close groups: the integrator alone, then the Pythagorean
# problem against a reference integration written apart from the program (tests/ar/), run
# by a Python with numpy (tests/io/with_python.sh: skipped, never passed, without one).
gc_add_test(test_ar_chain test_ar_chain.c)
target_link_libraries(test_ar_chain PRIVATE gc_hermite)
add_test(NAME test_ar_pythagorean
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/with_python.sh numpy ../ar/pythagorean.py
                 $<TARGET_FILE:test_ar_chain>)
set_tests_properties(test_ar_pythagorean PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
# The same problem through the program (--model pythagorean, regularisation by default),
# read from its snapshots: needs HDF5 and h5py.
if(GC_HAVE_HDF5)
  add_test(NAME test_ar_pythagorean_galaxy
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/io/with_python.sh "numpy h5py"
                   ../ar/pythagorean.py --galaxy $<TARGET_FILE:galaxy>
                   ${CMAKE_CURRENT_BINARY_DIR}/tmp/ar_pythagorean)
  set_tests_properties(test_ar_pythagorean_galaxy PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
else()
  add_test(NAME test_ar_pythagorean_galaxy COMMAND sh -c "echo 'SKIP: needs HDF5'; exit 77")
  set_tests_properties(test_ar_pythagorean_galaxy PROPERTIES SKIP_RETURN_CODE 77)
endif()
# Groups through the program: the Pythagorean problem of binaries, a Plummer cluster with
# primordial binaries, and the message without regularisation.
add_test(NAME test_ar_runs
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ar/test_ar_runs.sh $<TARGET_FILE:galaxy>)
set_tests_properties(test_ar_runs PROPERTIES TIMEOUT 600)
