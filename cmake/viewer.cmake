# gc_viewer and the galaxy executable: window (freeglut/GLX), headless (EGL), renderer, shaders.
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL GLX)
find_package(GLEW REQUIRED)
find_package(GLUT REQUIRED)
find_package(PNG REQUIRED)
find_package(X11 REQUIRED)

add_library(gc_viewer STATIC
  src/app.c
  src/render.c
  src/shader.c
  src/camera.c
  src/hud.c
  src/screenshot.c
  src/gl_context_egl.c
  src/gl_context_glx.c)
target_include_directories(gc_viewer PUBLIC src)
target_link_libraries(gc_viewer PUBLIC gc_core GLEW::GLEW GLUT::GLUT PNG::PNG
  OpenGL::OpenGL OpenGL::EGL OpenGL::GLX X11::X11)
# Fallback shader folder when the copy next to the binary is missing (e.g. binary moved).
target_compile_definitions(gc_viewer PRIVATE
  GC_SHADER_SOURCE_DIR="${CMAKE_CURRENT_SOURCE_DIR}/shaders")

add_executable(galaxy src/main.c)
target_link_libraries(galaxy PRIVATE gc_viewer)

# Shaders are read at run time from "shaders/" next to the binary: copy them on every build
# so an edited shader is picked up without re-running cmake.
file(GLOB GC_SHADER_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/shaders/*.vert
  ${CMAKE_CURRENT_SOURCE_DIR}/shaders/*.frag)
add_custom_target(gc_shaders ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory $<TARGET_FILE_DIR:galaxy>/shaders
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${GC_SHADER_FILES} $<TARGET_FILE_DIR:galaxy>/shaders/
  DEPENDS ${GC_SHADER_FILES}
  COMMENT "Copying shaders next to galaxy")
add_dependencies(galaxy gc_shaders)
install(TARGETS galaxy RUNTIME DESTINATION bin)
install(FILES ${GC_SHADER_FILES} DESTINATION bin/shaders)
