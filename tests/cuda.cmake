# CUDA tests: compiled wherever the CUDA backend is built, labelled "cuda"; they return 77
# ("skipped") when no device is present and fail normally when one is; without nvcc they are
# registered as skipped.
if(GC_HAVE_CUDA)
  foreach(t test_backend_cuda test_bench_cuda)
    gc_add_test(${t} ${t}.c)
    set_tests_properties(${t} PROPERTIES LABELS cuda TIMEOUT 600)
  endforeach()
  # The Hermite test on the GPU: the same checks as on the CPU, then the GPU against the
  # CPU and the graph loop against the host loop.
  # test_backend_cuda's forces on the real Dubinski table: a test of their own, skipped (77)
  # without a device or without the file.
  add_test(NAME test_backend_cuda_dubinski COMMAND test_backend_cuda dubinski)
  get_test_property(test_backend_cuda ENVIRONMENT env)
  set_tests_properties(test_backend_cuda_dubinski PROPERTIES LABELS cuda TIMEOUT 600
    SKIP_RETURN_CODE 77 ENVIRONMENT "${env}")
  add_test(NAME test_hermite_cuda COMMAND test_hermite cuda double)
  set_tests_properties(test_hermite_cuda PROPERTIES LABELS cuda TIMEOUT 600 SKIP_RETURN_CODE 77)
  add_test(NAME test_hermite_cuda_mixed COMMAND test_hermite cuda mixed)
  set_tests_properties(test_hermite_cuda_mixed PROPERTIES LABELS cuda TIMEOUT 600
                       SKIP_RETURN_CODE 77)
  # The tree on the GPU: test_tree's checks, then its tree against the CPU backend's.
  add_test(NAME test_tree_cuda COMMAND test_tree cuda)
  set_tests_properties(test_tree_cuda PROPERTIES LABELS cuda TIMEOUT 600 SKIP_RETURN_CODE 77)
  # Keyframes kept in GPU memory: a jump back gives the first pass's bits on this backend too.
  add_test(NAME test_keyframes_cuda COMMAND test_keyframes cuda)
  set_tests_properties(test_keyframes_cuda PROPERTIES LABELS cuda TIMEOUT 600 SKIP_RETURN_CODE 77)
  find_package(OpenMP REQUIRED COMPONENTS C)
  target_link_libraries(test_backend_cuda PRIVATE OpenMP::OpenMP_C)
else()
  # Without nvcc they still show in ctest's list, as skipped (never a silent absence).
  foreach(t test_backend_cuda test_backend_cuda_dubinski test_bench_cuda test_hermite_cuda
            test_hermite_cuda_mixed
            test_tree_cuda test_keyframes_cuda)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: this build has no CUDA backend (no nvcc, or GC_ENABLE_CUDA=OFF)'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS cuda)
  endforeach()
endif()
