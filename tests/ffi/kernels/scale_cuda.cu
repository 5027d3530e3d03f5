// A CUDA op for the GPU path of cpp_extension (tests/ffi; runs only where a GPU and nvcc exist).
#include "paddle/extension.h"

template <typename data_t>
__global__ void scale_kernel(const data_t* x, data_t* y, int64_t n, float s) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = x[i] * static_cast<data_t>(s);
}

std::vector<paddle::Tensor> ScaleCUDA(const paddle::Tensor& x, float scale) {
  PD_CHECK(x.is_gpu(), "x must be a GPU tensor");
  auto y = paddle::empty_like(x);
  int64_t n = x.numel();
  int threads = 256;
  int64_t blocks = (n + threads - 1) / threads;
  PD_DISPATCH_FLOATING_TYPES(x.type(), "scale_kernel", ([&] {
    scale_kernel<data_t><<<blocks, threads, 0, x.stream()>>>(x.data<data_t>(), y.data<data_t>(), n, scale);
  }));
  return {y};
}

PD_BUILD_OP(scale_gpu).Inputs({"X"}).Outputs({"Out"}).Attrs({"scale: float"}).SetKernelFn(PD_KERNEL(ScaleCUDA));
