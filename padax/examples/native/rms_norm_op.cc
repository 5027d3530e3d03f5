// RMS norm over the last axis with Paddle's custom-operator API (compiled by
// padax.utils.cpp_extension.load; see padax/examples/native_rms_norm.py):
// Out = X / sqrt(mean(X^2) + epsilon) * W, with a grad op for X and W.
#include <cmath>
#include <vector>

#include "paddle/extension.h"

template <typename data_t>
void rms_forward(const data_t* x, const data_t* w, data_t* out, data_t* rstd, int64_t rows, int64_t n, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += double(x[r * n + i]) * double(x[r * n + i]);
    data_t inv = data_t(1.0 / std::sqrt(s / double(n) + double(eps)));
    rstd[r] = inv;
    for (int64_t i = 0; i < n; ++i) out[r * n + i] = x[r * n + i] * inv * w[i];
  }
}

template <typename data_t>
void rms_backward(const data_t* x, const data_t* w, const data_t* rstd, const data_t* dy, data_t* dx, data_t* dw,
                  int64_t rows, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dw[i] = 0;
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0;
    for (int64_t i = 0; i < n; ++i) m += double(w[i]) * double(dy[r * n + i]) * double(x[r * n + i]);
    m /= double(n);
    data_t inv = rstd[r];
    for (int64_t i = 0; i < n; ++i) {
      dx[r * n + i] = inv * (w[i] * dy[r * n + i] - x[r * n + i] * inv * inv * data_t(m));
      dw[i] += dy[r * n + i] * x[r * n + i] * inv;
    }
  }
}

std::vector<paddle::Tensor> RmsNormForward(const paddle::Tensor& x, const paddle::Tensor& w, float epsilon) {
  PD_CHECK(x.shape().size() >= 1, "rms_norm: X must have at least one axis");
  PD_CHECK(epsilon >= 0, "rms_norm: epsilon must be >= 0, got ", epsilon);
  int64_t n = x.shape().back();
  int64_t rows = n == 0 ? 0 : x.numel() / n;
  std::vector<int64_t> rshape(x.shape().begin(), x.shape().end() - 1);
  auto out = paddle::empty(x.shape(), x.dtype(), x.place());
  auto rstd = paddle::empty(rshape, x.dtype(), x.place());
  PD_DISPATCH_FLOATING_TYPES(x.type(), "rms_forward", ([&] {
    rms_forward<data_t>(x.data<data_t>(), w.data<data_t>(), out.mutable_data<data_t>(x.place()),
                        rstd.mutable_data<data_t>(x.place()), rows, n, epsilon);
  }));
  return {out, rstd};
}

std::vector<paddle::Tensor> RmsNormBackward(const paddle::Tensor& x, const paddle::Tensor& w,
                                            const paddle::Tensor& rstd, const paddle::Tensor& grad_out) {
  int64_t n = x.shape().back();
  int64_t rows = n == 0 ? 0 : x.numel() / n;
  auto dx = paddle::empty(x.shape(), x.dtype(), x.place());
  auto dw = paddle::empty(w.shape(), w.dtype(), w.place());
  PD_DISPATCH_FLOATING_TYPES(x.type(), "rms_backward", ([&] {
    rms_backward<data_t>(x.data<data_t>(), w.data<data_t>(), rstd.data<data_t>(), grad_out.data<data_t>(),
                         dx.mutable_data<data_t>(), dw.mutable_data<data_t>(), rows, n);
  }));
  return {dx, dw};
}

std::vector<std::vector<int64_t>> RmsNormInferShape(const std::vector<int64_t>& x_shape,
                                                    const std::vector<int64_t>& w_shape, float epsilon) {
  PD_CHECK(x_shape.size() >= 1, "rms_norm: X must have at least one axis");
  PD_CHECK(w_shape.size() == 1 && w_shape[0] == x_shape.back(),
           "rms_norm: W must be a vector as long as X's last axis (", x_shape.back(), ")");
  return {x_shape, std::vector<int64_t>(x_shape.begin(), x_shape.end() - 1)};
}

std::vector<paddle::DataType> RmsNormInferDtype(const paddle::DataType& x_dtype, const paddle::DataType& w_dtype) {
  PD_CHECK(x_dtype == w_dtype, "rms_norm: X and W must have the same dtype");
  return {x_dtype, x_dtype};
}

PD_BUILD_OP(rms_norm)
    .Inputs({"X", "W"})
    .Outputs({"Out", "Rstd"})
    .Attrs({"epsilon: float"})
    .SetKernelFn(PD_KERNEL(RmsNormForward))
    .SetInferShapeFn(PD_INFER_SHAPE(RmsNormInferShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(RmsNormInferDtype));

PD_BUILD_GRAD_OP(rms_norm)
    .Inputs({"X", "W", "Rstd", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X"), paddle::Grad("W")})
    .SetKernelFn(PD_KERNEL(RmsNormBackward));
