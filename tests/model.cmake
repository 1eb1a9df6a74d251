# Tests of the built-in galaxy model (its comparison tool is built in tools/).
gc_add_test(test_model_galaxy ${CMAKE_CURRENT_SOURCE_DIR}/test_model_galaxy.c)
gc_add_test(test_model_stability ${CMAKE_CURRENT_SOURCE_DIR}/test_model_stability.c)
gc_add_test(test_model_large ${CMAKE_CURRENT_SOURCE_DIR}/test_model_large.c)

# The spheres the tree is measured on, and the split of a body set into more bodies.
gc_add_test(test_model_spheres ${CMAKE_CURRENT_SOURCE_DIR}/test_model_spheres.c)
# Encounters (src/models/encounter.c, scenario.c): the Keplerian start and disk angles, every
# preset, refusals (start); the built galaxies' first pericentre (orbit); prograde tails
# against retrograde (tails). Three tests, so that each stays within a few seconds.
add_executable(test_encounter test_encounter.c)
target_link_libraries(test_encounter PRIVATE gc_modes gc_check)
foreach(part start orbit tails)
  add_test(NAME test_encounter_${part} COMMAND test_encounter ${part})
  set_tests_properties(test_encounter_${part} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# Three runs of 4096 bodies to 395 Myr, the longest of these tests.
set_tests_properties(test_encounter_tails PROPERTIES LABELS "slow" TIMEOUT 600)
# The same from the command line: today's pair against the bytes of the code before
# encounters, refusals (options); scenes written, read back and refused (scenes, skipped
# without libinih).
foreach(part options scenes)
  add_test(NAME test_encounter_cli_${part}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_encounter_cli.sh $<TARGET_FILE:galaxy> ${part})
  set_tests_properties(test_encounter_cli_${part} PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
endforeach()
