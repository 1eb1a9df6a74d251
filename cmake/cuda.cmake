# gc_cuda: CUDA kernels and the CUDA backend, linked into gc_core when a CUDA compiler exists.
