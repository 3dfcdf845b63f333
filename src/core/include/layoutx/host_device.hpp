// Functions that the GPU runs as well as the host: __host__ __device__ under
// nvcc, plain inline functions for the host compiler.
#pragma once

#if defined(__CUDACC__)
#define LAYOUTX_HD __host__ __device__ __forceinline__
#else
#define LAYOUTX_HD inline
#endif
