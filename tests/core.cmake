# Core tests (loader, thinning, physics, CLI): no window, no GPU.
gc_add_test(test_table test_table.c)
gc_add_test(test_thin test_thin.c)
gc_add_test(test_physics test_physics.c)
gc_add_test(test_cli test_cli.c)
# The CPU backend's vector loops: every instruction set against float64 and the portable ones.
gc_add_test(test_backend_cpu test_backend_cpu.c)
# The window's size without a GPU, from step costs and from steps timed here.
gc_add_test(test_sizing test_sizing.c)
# The tree force method on the CPU: accuracy, hard cases, rank splits, reversibility, energy.
gc_add_test(test_tree test_tree.c)
find_package(OpenMP REQUIRED COMPONENTS C)
target_link_libraries(test_tree PRIVATE OpenMP::OpenMP_C)
set_tests_properties(test_tree PROPERTIES TIMEOUT 600)
# The tree's error against theta and its hard cases with each of the CPU's vector loops (the
# default run takes the widest); skipped (77) where the CPU lacks a set.
foreach(isa portable avx2 avx512)
  add_test(NAME test_tree_${isa} COMMAND test_tree isa ${isa})
  set_tests_properties(test_tree_${isa} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
# Their checks on the real Dubinski table (dubinski.tab.gz: tests/CMakeLists.txt), each a test of its own
# ("<test> dubinski") that returns 77 when the file is absent: ctest then reports it skipped,
# where inside the main test it would have passed unrun.
foreach(t test_table test_thin test_physics test_tree)
  add_test(NAME ${t}_dubinski COMMAND ${t} dubinski)
  get_test_property(${t} ENVIRONMENT env)
  set_tests_properties(${t}_dubinski PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "${env}")
endforeach()
gc_add_test(test_energy_dubinski test_energy_dubinski.c)
set_tests_properties(test_energy_dubinski PROPERTIES LABELS "slow" TIMEOUT 900)
add_test(NAME test_galaxy_cli
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_galaxy_cli.sh $<TARGET_FILE:galaxy>)
# Its runs on the real Dubinski table: a test of their own, skipped (77) without the file.
add_test(NAME test_galaxy_cli_dubinski
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_galaxy_cli.sh $<TARGET_FILE:galaxy> dubinski)
set_tests_properties(test_galaxy_cli test_galaxy_cli_dubinski PROPERTIES SKIP_RETURN_CODE 77
  ENVIRONMENT "GC_SHARED_DATA=${GC_TEST_DATA_DIR};GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
# Keyframes: a jump back gives the first pass's bits (leapfrog, both force methods; Hermite).
gc_add_test(test_keyframes test_keyframes.c)
gc_add_test(test_hermite test_hermite.c)
set_tests_properties(test_hermite PROPERTIES TIMEOUT 600)
# --precision on the CPU: hermite4 runs (double anyway), hermite6 refuses the mixed pass.
add_test(NAME test_hermite_precision COMMAND test_hermite cpu mixed)
# The Hermite GPU force pass's work layout: a plain-C header of kernels/, checked on the host.
gc_add_test(test_hermite_plan test_hermite_plan.c)
target_include_directories(test_hermite_plan PRIVATE ${PROJECT_SOURCE_DIR}/kernels)
# The block-step selection from levels alone (the CUDA compaction's), against the ticks.
gc_add_test(test_hermite_timeline test_hermite_timeline.c)
# The layers of src/ and kernels/: every include points to a lower layer, and no file of a
# folder reaches itself through the others' includes or, read from this build's objects,
# through the functions it calls (tools/layering.sh).
add_test(NAME test_layering COMMAND bash ${CMAKE_SOURCE_DIR}/tools/layering.sh ${CMAKE_SOURCE_DIR}
                                         ${CMAKE_BINARY_DIR})
# The time line on the CPU backend: going back to an earlier time, the encounter's events,
# --start-at; and, each force method a test of its own, 8,192 bodies 1,000 steps forwards
# and back (GC_TIMELINE_TEST_N: fewer, for the sanitizer run).
gc_add_test(test_timeline test_timeline.c)
set_tests_properties(test_timeline PROPERTIES TIMEOUT 600)
foreach(method allpairs tree)
  add_test(NAME test_timeline_reverse_${method} COMMAND test_timeline reverse ${method})
  get_test_property(test_timeline ENVIRONMENT env)
  set_tests_properties(test_timeline_reverse_${method} PROPERTIES LABELS "slow" TIMEOUT 900
    ENVIRONMENT "${env}")
endforeach()
