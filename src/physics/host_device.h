/* GC_HD: formulas compiled once for the host and, under nvcc, for the device too. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HOST_DEVICE_H
#define GC_HOST_DEVICE_H

#ifdef __CUDACC__
#define GC_HD __host__ __device__ __forceinline__
#else
#define GC_HD static inline
#endif

#endif
