# Documentation and packaging tests: the README's set-up commands and install line, the option
# table of docs/usage.md, the pages' links and pictures, --help and the man pages of both
# programs, and the installed layout.
add_test(NAME test_help
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_help.sh $<TARGET_FILE:galaxy>
                 $<TARGET_FILE:galaxy-bench> ${PROJECT_BINARY_DIR})
# The README's install line as root without sudo and as a user with sudo (stand-ins for
# cpack, apt-get and sudo: nothing is installed).
add_test(NAME test_install_deb
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_install_deb.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(test_install_deb PROPERTIES
  ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME test_readme_setup
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_readme.py setup
                   ${PROJECT_SOURCE_DIR})
  add_test(NAME test_readme_options
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_readme.py options
                   ${PROJECT_SOURCE_DIR} $<TARGET_FILE:galaxy>)
  add_test(NAME test_docs_links
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_links.py
                   ${PROJECT_SOURCE_DIR})
  add_test(NAME test_install
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/test_install.py
                   ${CMAKE_COMMAND} ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_install PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    ENVIRONMENT "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp")
else()
  foreach(t test_readme_setup test_readme_options test_docs_links test_install)
    add_test(NAME ${t} COMMAND sh -c "echo 'SKIP: python3 is not installed'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
endif()
