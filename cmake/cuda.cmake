# gc_cuda: CUDA kernels and the CUDA backend, linked into gc_core when a CUDA compiler exists.
# The kernels are an OBJECT library whose objects go into the gc_core archive, and
# backend_cuda.c is a gc_core source, so there is no gc_core <-> gc_cuda link cycle.
find_package(CUDAToolkit REQUIRED)

# Hopper machine code (sm_90) for every kernel; CMAKE_CUDA_ARCHITECTURES (default 90, set
# in the top-level CMakeLists) adds the matching -gencode=arch=compute_90,code=sm_90.
add_library(gc_cuda OBJECT
  kernels/gravity.cu
  kernels/gravity_reference.cu
  kernels/leapfrog.cu)
target_include_directories(gc_cuda PRIVATE kernels)
target_compile_options(gc_cuda PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:-O3 -Xptxas=-warn-spills --Werror=all-warnings>)
# Product force kernel: flush denormals so rsqrtf is a bare MUFU.RSQ (r^2 + eps^2 >= eps^2
# > 0 is never denormal). The classic reference kernel keeps IEEE defaults on purpose.
set_source_files_properties(kernels/gravity.cu PROPERTIES COMPILE_OPTIONS "-ftz=true")
set_target_properties(gc_cuda PROPERTIES POSITION_INDEPENDENT_CODE ON)

target_sources(gc_core PRIVATE src/backend_cuda.c)
target_link_libraries(gc_core PRIVATE gc_cuda)
target_link_libraries(gc_core PUBLIC CUDA::cudart_static)
target_compile_definitions(gc_core PUBLIC GC_ENABLE_CUDA=1)

# CUDA-GL interop needs only the GL header (the functions live in cudart); without it the
# backend always copies positions through the host, as --no-interop does.
include(CheckIncludeFile)
check_include_file(GL/gl.h GC_HAVE_GL_H)
if(GC_HAVE_GL_H)
  set_property(SOURCE src/backend_cuda.c APPEND PROPERTY COMPILE_DEFINITIONS GC_CUDA_GL_INTEROP=1)
else()
  message(STATUS "GL/gl.h not found: CUDA backend built without CUDA-GL interop")
endif()

# galaxy-bench: --benchmark/--compare without the viewer's GL libraries, for GPU hosts.
add_executable(galaxy-bench bench/galaxy_bench.c)
target_link_libraries(galaxy-bench PRIVATE gc_core)
