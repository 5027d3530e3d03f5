// RMS norm over the last axis, y = x / sqrt(mean(x^2) + eps) * w, and its gradient, as XLA typed-FFI
// handlers (called through padax.ffi; see padax/examples/native_rms_norm.py and docs/native_code.md).
//
//   g++ -O2 -std=c++17 -shared -fPIC -I$(python -c "import padax.ffi; print(padax.ffi.include_dir())") \
//       rms_norm_ffi.cc -o librms_norm_ffi.so
#include <cmath>
#include <cstdint>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

template <typename T>
static ffi::Error Rows(const ffi::AnyBuffer& x, const ffi::AnyBuffer& w, int64_t* rows, int64_t* n) {
  auto dims = x.dimensions();
  if (dims.size() == 0) return ffi::Error::InvalidArgument("rms_norm: x must have at least one axis");
  *n = dims.back();
  *rows = *n == 0 ? 0 : static_cast<int64_t>(x.element_count()) / *n;
  if (w.dimensions().size() != 1 || w.dimensions()[0] != *n)
    return ffi::Error::InvalidArgument("rms_norm: w must be a vector as long as x's last axis");
  return ffi::Error::Success();
}

template <typename T>
static ffi::Error Forward(float eps, ffi::AnyBuffer x, ffi::AnyBuffer w, ffi::Result<ffi::AnyBuffer> y,
                          ffi::Result<ffi::AnyBuffer> rstd) {
  int64_t rows, n;
  if (auto e = Rows<T>(x, w, &rows, &n); e.failure()) return e;
  if (eps < 0) return ffi::Error::InvalidArgument("rms_norm: eps must be >= 0");
  const T* xp = x.typed_data<T>();
  const T* wp = w.typed_data<T>();
  T* yp = y->typed_data<T>();
  T* rp = rstd->typed_data<T>();
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = xp + r * n;
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += double(xr[i]) * double(xr[i]);
    T inv = T(1.0 / std::sqrt(s / double(n) + double(eps)));
    rp[r] = inv;
    for (int64_t i = 0; i < n; ++i) yp[r * n + i] = xr[i] * inv * wp[i];
  }
  return ffi::Error::Success();
}

// dx = rstd * (w*dy - x * rstd^2 * mean(w*dy*x)), dw = sum over rows of dy * x * rstd
template <typename T>
static ffi::Error Backward(ffi::AnyBuffer x, ffi::AnyBuffer w, ffi::AnyBuffer rstd, ffi::AnyBuffer dy,
                           ffi::Result<ffi::AnyBuffer> dx, ffi::Result<ffi::AnyBuffer> dw) {
  int64_t rows, n;
  if (auto e = Rows<T>(x, w, &rows, &n); e.failure()) return e;
  const T* xp = x.typed_data<T>();
  const T* wp = w.typed_data<T>();
  const T* rp = rstd.typed_data<T>();
  const T* gp = dy.typed_data<T>();
  T* dxp = dx->typed_data<T>();
  T* dwp = dw->typed_data<T>();
  for (int64_t i = 0; i < n; ++i) dwp[i] = T(0);
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = xp + r * n;
    const T* gr = gp + r * n;
    double m = 0;
    for (int64_t i = 0; i < n; ++i) m += double(wp[i]) * double(gr[i]) * double(xr[i]);
    m /= double(n);
    T inv = rp[r];
    for (int64_t i = 0; i < n; ++i) {
      dxp[r * n + i] = inv * (wp[i] * gr[i] - xr[i] * inv * inv * T(m));
      dwp[i] += gr[i] * xr[i] * inv;
    }
  }
  return ffi::Error::Success();
}

static ffi::Error RmsNormFwd(float eps, ffi::AnyBuffer x, ffi::AnyBuffer w, ffi::Result<ffi::AnyBuffer> y,
                             ffi::Result<ffi::AnyBuffer> rstd) {
  switch (x.element_type()) {
    case ffi::F32: return Forward<float>(eps, x, w, y, rstd);
    case ffi::F64: return Forward<double>(eps, x, w, y, rstd);
    default: return ffi::Error::InvalidArgument("rms_norm: x must be float32 or float64");
  }
}

static ffi::Error RmsNormBwd(ffi::AnyBuffer x, ffi::AnyBuffer w, ffi::AnyBuffer rstd, ffi::AnyBuffer dy,
                             ffi::Result<ffi::AnyBuffer> dx, ffi::Result<ffi::AnyBuffer> dw) {
  switch (x.element_type()) {
    case ffi::F32: return Backward<float>(x, w, rstd, dy, dx, dw);
    case ffi::F64: return Backward<double>(x, w, rstd, dy, dx, dw);
    default: return ffi::Error::InvalidArgument("rms_norm_bwd: x must be float32 or float64");
  }
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNormForward, RmsNormFwd,
                              ffi::Ffi::Bind()
                                  .Attr<float>("eps")
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNormBackward, RmsNormBwd,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>());
