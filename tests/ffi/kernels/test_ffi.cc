// Small XLA FFI handlers for tests/ffi (compiled once per test session).
#include <cstdint>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

// y = scale * x + y0 (elementwise, f32; y0 broadcast from the leading size-1 axes is NOT done: same shape)
static ffi::Error AxpyImpl(float scale, ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> y0,
                           ffi::ResultBuffer<ffi::F32> out) {
  if (x.element_count() != y0.element_count())
    return ffi::Error::InvalidArgument("axpy: x and y0 must have the same number of elements");
  for (size_t i = 0; i < x.element_count(); ++i) out->typed_data()[i] = scale * x.typed_data()[i] + y0.typed_data()[i];
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Axpy, AxpyImpl,
                              ffi::Ffi::Bind().Attr<float>("scale").Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());

// out[0..4] = i, f, b, len(s) + sum(arr); out[4] = rank-0 leading dim of x (number of calls' batch: x.dims[0])
static ffi::Error EchoImpl(int64_t i, double f, bool b, std::string_view s, ffi::Span<const int64_t> arr,
                           ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F64> out) {
  double total = static_cast<double>(s.size());
  for (int64_t v : arr) total += static_cast<double>(v);
  double* o = out->typed_data();
  o[0] = static_cast<double>(i);
  o[1] = f;
  o[2] = b ? 1.0 : 0.0;
  o[3] = total;
  o[4] = x.dimensions().size() ? static_cast<double>(x.dimensions()[0]) : -1.0;
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Echo, EchoImpl,
                              ffi::Ffi::Bind().Attr<int64_t>("i").Attr<double>("f").Attr<bool>("b")
                                  .Attr<std::string_view>("s").Attr<ffi::Span<const int64_t>>("arr")
                                  .Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F64>>());

// adds 1 to x in place (used with input_output_aliases={0: 0})
static ffi::Error AddOneImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> out) {
  for (size_t i = 0; i < x.element_count(); ++i) out->typed_data()[i] = x.typed_data()[i] + 1.0f;
  return ffi::Error::Success();
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(AddOne, AddOneImpl,
                              ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());

// always fails, with its own message
static ffi::Error FailImpl(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> out) {
  return ffi::Error::InvalidArgument("always_fails: the kernel refuses its input");
}
XLA_FFI_DEFINE_HANDLER_SYMBOL(Fail, FailImpl,
                              ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
