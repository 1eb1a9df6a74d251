# Install layout (GNUInstallDirs), the man pages generated from the option table, and the
# Debian package (cpack -G DEB). Included from the top-level CMakeLists.txt after the targets.

# Man pages: each program writes its own from the table that also writes --help.
foreach(prog galaxy galaxy-bench)
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/${prog}.1
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:${prog}> -DARG=--help-man
            -DOUT=${PROJECT_BINARY_DIR}/${prog}.1 -P ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake
    DEPENDS ${prog} ${PROJECT_SOURCE_DIR}/cmake/run_to_file.cmake
    COMMENT "Writing the man page ${prog}.1")
endforeach()
add_custom_target(gc_man ALL DEPENDS ${PROJECT_BINARY_DIR}/galaxy.1 ${PROJECT_BINARY_DIR}/galaxy-bench.1)

install(TARGETS galaxy galaxy-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders/ DESTINATION ${GC_SHADER_INSTALL_DIR}
  FILES_MATCHING PATTERN "*.vert" PATTERN "*.frag")
install(FILES ${PROJECT_BINARY_DIR}/galaxy.1 ${PROJECT_BINARY_DIR}/galaxy-bench.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The manual and the physics the README links to, at the same relative paths.
install(FILES ${PROJECT_SOURCE_DIR}/docs/usage.md ${PROJECT_SOURCE_DIR}/docs/physics.md
  ${PROJECT_SOURCE_DIR}/docs/model.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# cpack -G DEB: runtime dependencies come from dpkg-shlibdeps (package dpkg-dev, pulled in
# by build-essential), so they follow whatever libraries this build linked.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME galaxy)
set(CPACK_PACKAGE_VENDOR "the galaxy authors")
set(CPACK_PACKAGE_CONTACT "the galaxy authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Interactive N-body viewer of colliding galaxies (CUDA or OpenMP, OpenGL)")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# GL and EGL dispatch through glvnd: Mesa is the vendor where no NVIDIA driver is installed.
# DejaVu Sans: the font of the text on screen (without it, a built-in pixel font).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, libegl-mesa0, fonts-dejavu-core")
include(CPack)
