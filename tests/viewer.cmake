# Viewer tests: the view maths (gc_view, no GL context), and the real binary under Xvfb + Mesa
# (window) or EGL (headless).
foreach(t test_camera test_exposure test_pacer test_director test_events
          test_picture_profile)
  gc_add_test(${t} ${t}.c)
  target_link_libraries(${t} PRIVATE gc_view)
endforeach()
# Fences: the backend's for frames in which GL queued nothing (a fake backend, no context).
# frame_fence.c is the viewer's (it makes GL fences): compiled in, not the whole GL viewer.
gc_add_test(test_frame_fence test_frame_fence.c ${CMAKE_SOURCE_DIR}/src/viewer/frame_fence.c)
find_package(GLEW REQUIRED) # imported in src/viewer's scope only
target_include_directories(test_frame_fence PRIVATE ${CMAKE_SOURCE_DIR}/src/viewer)
target_link_libraries(test_frame_fence PRIVATE gc_view gc_backends GLEW::GLEW)

gc_add_test(test_record test_record.c)
target_link_libraries(test_record PRIVATE gc_record)

# A test whose tools are missing is still registered and reports "skipped" (never a silent
# absence, never a pass).
function(gc_add_skipped_test name why)
  add_test(NAME ${name} COMMAND sh -c "echo 'SKIP: ${why}'; exit 77")
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS "viewer")
  message(STATUS "${name} will report skipped: ${why}")
endfunction()

find_program(GC_XVFB Xvfb)
find_program(GC_XDOTOOL xdotool)
find_package(Python3 COMPONENTS Interpreter)
# Whether this build records movies (src/record builds gc_record from record_ffmpeg.c or
# record_none.c): test_window.py then expects a movie from 'v', or reports that check skipped.
get_target_property(gc_record_sources gc_record SOURCES)
if(gc_record_sources MATCHES "record_ffmpeg")
  set(gc_has_record 1)
else()
  set(gc_has_record 0)
endif()
# Whether this build draws real type (src/viewer: FreeType found): test_text.py then requires
# it where DejaVu Sans is installed, and reports itself skipped otherwise.
if(GC_HAVE_FREETYPE)
  set(gc_has_freetype 1)
else()
  set(gc_has_freetype 0)
endif()
set(GC_VIEWER_ENV
  "GC_SHARED_DATA=${GC_TEST_DATA_DIR}"
  "GC_TEST_TMP=${CMAKE_CURRENT_BINARY_DIR}/tmp"
  "GC_TEST_HAS_RECORD=${gc_has_record}"
  "GC_TEST_HAS_FREETYPE=${gc_has_freetype}")

if(Python3_FOUND)
  # No X server needed (and none may be used): DISPLAY is removed inside the script.
  add_test(NAME test_viewer_headless
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_headless.py
                   $<TARGET_FILE:galaxy>)
  add_test(NAME test_viewer_no_display
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_no_display.py
                   $<TARGET_FILE:galaxy> ${PROJECT_SOURCE_DIR})
  # A short headless movie under Mesa, checked with ffprobe and its first, middle and last
  # frames against screenshots of the same frames (viewer/moviecheck.py; skipped without FFmpeg).
  add_test(NAME test_viewer_movie
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_movie.py
                   $<TARGET_FILE:galaxy>)
  # Progress of --headless and --steps on a pseudo-terminal, and none in a pipe or with --quiet.
  add_test(NAME test_viewer_progress
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_progress.py
                   $<TARGET_FILE:galaxy>)
  # The time limits here are for a hang: on a loaded 2-core machine (tests side by side with
  # ctest -j, other builds beside them) these tests took 2 to 4 times as long as alone.
  set_tests_properties(test_viewer_progress PROPERTIES
    ENVIRONMENT "${GC_VIEWER_ENV}" LABELS "viewer" TIMEOUT 600 SKIP_RETURN_CODE 77)
  # --present's title and time read back from a headless picture at two sizes: in place,
  # dark around, real type (anti-aliased, mixed case) when built with FreeType, else skipped.
  add_test(NAME test_viewer_text_headless
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_text.py
                   $<TARGET_FILE:galaxy> headless)
  set_tests_properties(test_viewer_headless test_viewer_no_display test_viewer_movie
                       test_viewer_text_headless PROPERTIES
    ENVIRONMENT "${GC_VIEWER_ENV}" LABELS "viewer" TIMEOUT 120 SKIP_RETURN_CODE 77)
  # Its runs with --start-at step a few thousand bodies on the CPU besides the frames.
  set_tests_properties(test_viewer_headless PROPERTIES TIMEOUT 300)
  if(GC_XVFB AND GC_XDOTOOL)
    # A private Xvfb on a random high display, checked with Xlib before the test (viewer/xvfb.py
    # says why not xvfb-run -a).
    # Two parts, two tests (each with its own X server): keys and mouse on the galaxy pair;
    # the time-step level colours of hermite4.
    add_test(NAME test_viewer_window
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xvfb.py 1280x800x24
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_window.py
                     $<TARGET_FILE:galaxy> keys)
    add_test(NAME test_viewer_window_levels
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xvfb.py 1280x800x24
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_window.py
                     $<TARGET_FILE:galaxy> levels)
    # What an audience sees first, and the time line: --start-at, jumps, running backwards
    # (going back starts the run over: its jumps take longer on a busy machine).
    add_test(NAME test_viewer_window_timeline
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xvfb.py 1280x800x24
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_window.py
                     $<TARGET_FILE:galaxy> timeline)
    # The encounter panel: opened, a value changed, restarts (log and pixels).
    add_test(NAME test_viewer_window_panel
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xvfb.py 1280x800x24
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_window.py
                     $<TARGET_FILE:galaxy> panel)
    # The same title and time read back from the window.
    add_test(NAME test_viewer_text_window
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xvfb.py 1280x800x24
                     ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/viewer/test_text.py
                     $<TARGET_FILE:galaxy> window)
    set_tests_properties(test_viewer_window test_viewer_window_levels test_viewer_window_timeline
      test_viewer_window_panel test_viewer_text_window PROPERTIES ENVIRONMENT "${GC_VIEWER_ENV}"
      LABELS "viewer" TIMEOUT 180 SKIP_RETURN_CODE 77)
    set_tests_properties(test_viewer_window_timeline PROPERTIES TIMEOUT 600)
  else()
    foreach(t test_viewer_window test_viewer_window_levels test_viewer_window_timeline
              test_viewer_window_panel
              test_viewer_text_window)
      gc_add_skipped_test(${t} "Xvfb or xdotool is not installed")
    endforeach()
  endif()
else()
  foreach(t test_viewer_headless test_viewer_no_display test_viewer_movie test_viewer_progress
            test_viewer_window test_viewer_window_levels test_viewer_window_timeline
            test_viewer_window_panel
            test_viewer_text_headless
            test_viewer_text_window)
    gc_add_skipped_test(${t} "python3 is not installed")
  endforeach()
endif()
