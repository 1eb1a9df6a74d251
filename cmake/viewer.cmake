# gc_viewer and the galaxy executable: window, renderer, shaders.
add_executable(galaxy src/main.c src/app.c)
target_link_libraries(galaxy PRIVATE gc_core)
