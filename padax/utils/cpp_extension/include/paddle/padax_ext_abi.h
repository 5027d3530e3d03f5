// The C functions every padax C++ extension exports (included by paddle/extension.h; padax calls them
// through ctypes). They are weak symbols, so an extension of several source files links one copy.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace paddle {
namespace detail {

inline std::string JsonStr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if (static_cast<unsigned char>(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o + "\"";
}

inline std::string JsonList(const std::vector<std::string>& xs) {
  std::string o = "[";
  for (size_t i = 0; i < xs.size(); ++i) o += (i ? "," : "") + JsonStr(xs[i]);
  return o + "]";
}

inline std::vector<Attr> SplitAttrs(const char* text, size_t len) {
  std::vector<Attr> out;
  std::string cur;
  for (size_t i = 0; i < len; ++i) {
    if (text[i] == '\n') { out.push_back(Attr{cur}); cur.clear(); }
    else cur.push_back(text[i]);
  }
  return out;
}

constexpr const char* kErrorMarker = "padax-kernel-error: ";

using CopyFn = void (*)(void* dst, const void* src, size_t n);

inline void HostCopy(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }

inline ::xla::ffi::Error RunOpOn(const Place& place, CopyFn copy, ::xla::ffi::RemainingArgs args,
                                 ::xla::ffi::RemainingRets rets, int64_t op, std::string_view attr_text) {
  auto& reg = Registry();
  if (op < 0 || static_cast<size_t>(op) >= reg.size())
    return ::xla::ffi::Error::Internal(std::string(kErrorMarker) + "padax: no op #" + std::to_string(op));
  const OpInfo& info = reg[op];
  std::string where = "of op '" + info.name + "' failed: ";
  try {
    std::vector<Tensor> ins;
    ins.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      auto b = args.get<::xla::ffi::AnyBuffer>(i);
      if (!b.has_value()) PD_THROW("input ", i, " is not a buffer");
      auto dims = b->dimensions();
      ins.push_back(Tensor::View(b->untyped_data(), std::vector<int64_t>(dims.begin(), dims.end()),
                                 static_cast<DataType>(b->element_type()), place));
    }
    std::vector<Tensor> outs = info.kernel(ins, SplitAttrs(attr_text.data(), attr_text.size()));
    if (outs.size() != rets.size())
      PD_THROW("the kernel returned ", outs.size(), " tensors, but the op declares ", rets.size(), " outputs");
    for (size_t i = 0; i < outs.size(); ++i) {
      auto r = rets.get<::xla::ffi::AnyBuffer>(i);
      if (!r.has_value()) PD_THROW("output ", i, " is not a buffer");
      auto dims = (*r)->dimensions();
      std::vector<int64_t> want(dims.begin(), dims.end());
      const Tensor& t = outs[i];
      if (static_cast<int>(t.dtype()) != static_cast<int>((*r)->element_type()) || t.numel() != static_cast<int64_t>((*r)->element_count()))
        PD_THROW("output ", info.outputs.size() > i ? info.outputs[i] : std::to_string(i), " of the kernel is ",
                 DataTypeToString(t.dtype()), " with ", t.numel(), " elements, but the infer-shape/dtype functions "
                 "said ", DataTypeToString(static_cast<DataType>((*r)->element_type())), " with ",
                 (*r)->element_count(), " elements");
      if (t.numel() > 0) {
        if (t.data() == nullptr) PD_THROW("output ", i, " of the kernel was never allocated (mutable_data)");
        if (t.data() != (*r)->untyped_data()) copy((*r)->untyped_data(), t.data(), t.nbytes());
      }
    }
  } catch (const std::exception& e) {
    return ::xla::ffi::Error(::xla::ffi::ErrorCode::kInvalidArgument, std::string(kErrorMarker) + where + e.what());
  } catch (...) {
    return ::xla::ffi::Error(::xla::ffi::ErrorCode::kInternal, std::string(kErrorMarker) + where + "an unknown C++ exception");
  }
  return ::xla::ffi::Error::Success();
}

inline ::xla::ffi::Error RunOp(::xla::ffi::RemainingArgs args, ::xla::ffi::RemainingRets rets, int64_t op,
                               std::string_view attr_text) {
  return RunOpOn(CPUPlace(), HostCopy, args, rets, op, attr_text);
}

#ifdef PADAX_WITH_CUDA
inline void DeviceCopy(void* dst, const void* src, size_t n) {
  cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, CurrentStream());
}

inline ::xla::ffi::Error RunOpCuda(cudaStream_t stream, ::xla::ffi::RemainingArgs args,
                                   ::xla::ffi::RemainingRets rets, int64_t op, std::string_view attr_text) {
  CurrentStream() = stream;
  auto err = RunOpOn(GPUPlace(), DeviceCopy, args, rets, op, attr_text);
  CurrentStream() = nullptr;
  return err;
}
#endif

}  // namespace detail
}  // namespace paddle

extern "C" {

__attribute__((weak, visibility("default"))) int padax_ext_abi_version() { return 1; }

__attribute__((weak, visibility("default"))) const char* padax_ext_ops_json() {
  static std::string out;
  using namespace ::paddle::detail;
  out = "[";
  auto& reg = Registry();
  for (size_t i = 0; i < reg.size(); ++i) {
    const OpInfo& o = reg[i];
    out += std::string(i ? "," : "") + "{\"name\":" + JsonStr(o.name) + ",\"inputs\":" + JsonList(o.inputs) +
           ",\"outputs\":" + JsonList(o.outputs) + ",\"attrs\":" + JsonList(o.attrs) +
           ",\"kernel\":" + (o.kernel ? "true" : "false") + ",\"infer_shape\":" + (o.infer_shape ? "true" : "false") +
           ",\"infer_dtype\":" + (o.infer_dtype ? "true" : "false") + ",\"unsupported\":" + JsonStr(o.unsupported) + "}";
  }
  out += "]";
  return out.c_str();
}

// Shapes and dtypes of op #op's outputs for inputs of the given shapes/dtypes and attributes (text, one line
// each). Writes "dtype rank d0 d1 ...\n" per output into `out`; returns 0, or 1 with the error in `out`.
__attribute__((weak, visibility("default"))) int padax_ext_infer(int op, int n_in, const int64_t* ranks,
                                                              const int64_t* dims, const int* dtypes,
                                                              const char* attrs, size_t attrs_len,
                                                              char* out, size_t out_len) {
  using namespace ::paddle::detail;
  using ::paddle::DataType;
  std::string res;
  int rc = 0;
  try {
    const OpInfo& info = Registry().at(op);
    std::vector<std::vector<int64_t>> shapes;
    std::vector<DataType> types;
    const int64_t* d = dims;
    for (int i = 0; i < n_in; ++i) {
      shapes.emplace_back(d, d + ranks[i]);
      d += ranks[i];
      types.push_back(static_cast<DataType>(dtypes[i]));
    }
    std::vector<Attr> at = SplitAttrs(attrs, attrs_len);
    std::vector<std::vector<int64_t>> oshapes;
    std::vector<DataType> otypes;
    size_t n_out = info.outputs.size();
    if (info.infer_shape) oshapes = info.infer_shape(shapes, at);
    else if (n_in >= 1 && n_out == 1) oshapes = {shapes[0]};
    else PD_THROW("op '", info.name, "' has ", n_in, " inputs and ", n_out, " outputs: give it an infer-shape "
                  "function (SetInferShapeFn(PD_INFER_SHAPE(...)))");
    if (info.infer_dtype) otypes = info.infer_dtype(types, at);
    else if (n_in >= 1) otypes.assign(n_out, types[0]);
    else PD_THROW("op '", info.name, "' has no inputs: give it an infer-dtype function");
    if (oshapes.size() != n_out || otypes.size() != n_out)
      PD_THROW("op '", info.name, "': the infer-shape/dtype functions returned ", oshapes.size(), " shapes and ",
               otypes.size(), " dtypes for ", n_out, " outputs");
    for (size_t i = 0; i < n_out; ++i) {
      res += std::to_string(static_cast<int>(otypes[i])) + " " + std::to_string(oshapes[i].size());
      for (int64_t x : oshapes[i]) res += " " + std::to_string(x);
      res += "\n";
    }
  } catch (const std::exception& e) {
    res = e.what();
    rc = 1;
  }
  if (out_len) {
    size_t n = std::min(res.size(), out_len - 1);
    std::memcpy(out, res.data(), n);
    out[n] = 0;
  }
  return res.size() >= out_len ? 2 : rc;
}

__attribute__((weak, visibility("default"))) XLA_FFI_Error* padax_ext_handler(XLA_FFI_CallFrame* call_frame) {
  static auto* handler = ::xla::ffi::Ffi::Bind()
                             .RemainingArgs()
                             .RemainingRets()
                             .Attr<int64_t>("op")
                             .Attr<std::string_view>("attrs")
                             .To(::paddle::detail::RunOp)
                             .release();
  return handler->Call(call_frame);
}

#ifdef PADAX_WITH_CUDA
// the same ops in GPU programs: inputs and outputs live on the device, kernels run on XLA's stream
__attribute__((weak, visibility("default"))) XLA_FFI_Error* padax_ext_cuda_handler(XLA_FFI_CallFrame* call_frame) {
  static auto* handler = ::xla::ffi::Ffi::Bind()
                             .Ctx<::xla::ffi::PlatformStream<cudaStream_t>>()
                             .RemainingArgs()
                             .RemainingRets()
                             .Attr<int64_t>("op")
                             .Attr<std::string_view>("attrs")
                             .To(::paddle::detail::RunOpCuda)
                             .release();
  return handler->Call(call_frame);
}
#endif

}  // extern "C"
