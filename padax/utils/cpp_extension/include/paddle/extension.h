// padax's implementation of Paddle's C++ custom-operator API (paddle/extension.h) over XLA's typed FFI.
//
// Operators written for Paddle (PD_BUILD_OP / PD_BUILD_GRAD_OP, paddle::Tensor, PD_KERNEL,
// PD_INFER_SHAPE, PD_INFER_DTYPE, PD_CHECK, PD_DISPATCH_*_TYPES) compile against this header. The macros
// register each op into a static registry inside the shared library; the library exports C functions
// that padax (padax.utils.cpp_extension) calls through ctypes to list the ops and run their shape/dtype
// inference, and one XLA FFI handler (padax_ext_handler) that runs an op's kernel inside a compiled
// program: inputs are views of XLA's buffers, the tensors the kernel returns are copied into XLA's
// result buffers. A C++ exception thrown by a kernel (PD_CHECK, PD_THROW) becomes an FFI error that
// padax reports as the kernel's own error (padax.ffi.FfiKernelError).
//
// Not supported (padax says so when the op is loaded): vector<Tensor> and optional inputs, inplace maps,
// half-precision element types in PD_DISPATCH_* (float16/bfloat16 tensors can still be passed through).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "xla/ffi/api/ffi.h"

#ifdef PADAX_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace paddle {
#ifdef PADAX_WITH_CUDA
namespace detail {
// the stream XLA runs the current GPU call on (set by padax_ext_cuda_handler); kernels launch on it
inline cudaStream_t& CurrentStream() {
  static thread_local cudaStream_t stream = nullptr;
  return stream;
}
}  // namespace detail
#endif

// Element types; the values are XLA FFI's data-type codes (padax maps numpy dtypes to the same codes).
enum class DataType : int {
  UNDEFINED = 0,
  BOOL = 1,
  INT8 = 2,
  INT16 = 3,
  INT32 = 4,
  INT64 = 5,
  UINT8 = 6,
  UINT16 = 7,
  UINT32 = 8,
  UINT64 = 9,
  FLOAT16 = 10,
  FLOAT32 = 11,
  FLOAT64 = 12,
  COMPLEX64 = 15,
  BFLOAT16 = 16,
  COMPLEX128 = 18,
};

inline const char* DataTypeToString(DataType t) {
  switch (t) {
    case DataType::BOOL: return "bool";
    case DataType::INT8: return "int8";
    case DataType::INT16: return "int16";
    case DataType::INT32: return "int32";
    case DataType::INT64: return "int64";
    case DataType::UINT8: return "uint8";
    case DataType::UINT16: return "uint16";
    case DataType::UINT32: return "uint32";
    case DataType::UINT64: return "uint64";
    case DataType::FLOAT16: return "float16";
    case DataType::FLOAT32: return "float32";
    case DataType::FLOAT64: return "float64";
    case DataType::COMPLEX64: return "complex64";
    case DataType::BFLOAT16: return "bfloat16";
    case DataType::COMPLEX128: return "complex128";
    default: return "undefined";
  }
}

inline std::ostream& operator<<(std::ostream& os, DataType t) { return os << DataTypeToString(t); }

inline size_t SizeOf(DataType t) {
  switch (t) {
    case DataType::BOOL: case DataType::INT8: case DataType::UINT8: return 1;
    case DataType::INT16: case DataType::UINT16: case DataType::FLOAT16: case DataType::BFLOAT16: return 2;
    case DataType::INT32: case DataType::UINT32: case DataType::FLOAT32: return 4;
    case DataType::INT64: case DataType::UINT64: case DataType::FLOAT64: case DataType::COMPLEX64: return 8;
    case DataType::COMPLEX128: return 16;
    default: return 0;
  }
}

namespace detail {
template <typename T> struct TypeOf { static constexpr DataType value = DataType::UNDEFINED; };
#define PADAX_TYPE_OF(T, D) template <> struct TypeOf<T> { static constexpr DataType value = DataType::D; };
PADAX_TYPE_OF(bool, BOOL)
PADAX_TYPE_OF(int8_t, INT8)
PADAX_TYPE_OF(int16_t, INT16)
PADAX_TYPE_OF(int32_t, INT32)
PADAX_TYPE_OF(int64_t, INT64)
PADAX_TYPE_OF(uint8_t, UINT8)
PADAX_TYPE_OF(uint16_t, UINT16)
PADAX_TYPE_OF(uint32_t, UINT32)
PADAX_TYPE_OF(uint64_t, UINT64)
PADAX_TYPE_OF(float, FLOAT32)
PADAX_TYPE_OF(double, FLOAT64)
#undef PADAX_TYPE_OF

inline void Cat(std::ostringstream&) {}
template <typename T, typename... Ts>
void Cat(std::ostringstream& os, const T& x, const Ts&... xs) { os << x; Cat(os, xs...); }
template <typename... Ts>
std::string Str(const Ts&... xs) { std::ostringstream os; Cat(os, xs...); return os.str(); }
}  // namespace detail

// Errors: PD_THROW / PD_CHECK throw; the handler reports the message as the kernel's error.
#define PD_THROW(...) throw std::runtime_error(::paddle::detail::Str(__VA_ARGS__))
#define PD_CHECK(COND, ...)                                                                 \
  do {                                                                                      \
    if (!(COND))                                                                            \
      throw std::runtime_error(::paddle::detail::Str("Expected " #COND ", but it's not satisfied. ", \
                                                     ##__VA_ARGS__, " (at ", __FILE__, ":", __LINE__, ")")); \
  } while (0)

enum class PlaceType { kUNK = -1, kCPU = 0, kGPU = 1 };

class Place {
 public:
  Place() = default;
  Place(PlaceType t, int device_id = 0) : type_(t), id_(device_id) {}  // NOLINT (implicit, as Paddle's)
  PlaceType GetType() const { return type_; }
  int GetDeviceId() const { return id_; }
  bool operator==(const Place& o) const { return type_ == o.type_ && id_ == o.id_; }
  bool operator!=(const Place& o) const { return !(*this == o); }
 private:
  PlaceType type_ = PlaceType::kCPU;
  int id_ = 0;
};
inline Place CPUPlace() { return Place(PlaceType::kCPU); }
inline Place GPUPlace(int id = 0) { return Place(PlaceType::kGPU, id); }

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Place& place, const std::vector<int64_t>& shape) : shape_(shape), place_(place) {}
  Tensor(const Place& place) : place_(place) {}  // NOLINT

  // a view of memory padax owns (an input buffer of the running program)
  static Tensor View(void* data, std::vector<int64_t> shape, DataType dtype, Place place) {
    Tensor t(place, shape);
    t.data_ = data;
    t.dtype_ = dtype;
    return t;
  }

  const std::vector<int64_t>& shape() const { return shape_; }
  std::vector<int64_t> dims() const { return shape_; }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape_) n *= d;
    return n;
  }
  int64_t size() const { return numel(); }
  DataType dtype() const { return dtype_; }
  DataType type() const { return dtype_; }
  const Place& place() const { return place_; }
  bool is_cpu() const { return place_.GetType() == PlaceType::kCPU; }
  bool is_gpu() const { return place_.GetType() == PlaceType::kGPU; }
  bool defined() const { return data_ != nullptr || dtype_ != DataType::UNDEFINED; }
  bool initialized() const { return data_ != nullptr; }
  bool is_initialized() const { return initialized(); }
  void reshape(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (data_ != nullptr && n != numel())
      PD_THROW("Tensor::reshape: cannot reshape ", numel(), " elements to ", n);
    shape_ = shape;
  }
  size_t nbytes() const { return static_cast<size_t>(numel()) * SizeOf(dtype_); }

  template <typename T>
  T* data() const {
    check_type<T>("data");
    return static_cast<T*>(data_);
  }
  void* data() const { return data_; }

  template <typename T>
  T* mutable_data(const Place& place = Place()) {
    (void)place;
    if (dtype_ == DataType::UNDEFINED) dtype_ = detail::TypeOf<T>::value;
    check_type<T>("mutable_data");
    if (data_ == nullptr) allocate();
    return static_cast<T*>(data_);
  }

  // allocates this tensor's own (zeroed) memory; padax copies it into XLA's result buffer
  void allocate() {
    size_t n = std::max<size_t>(nbytes(), 1);
#ifdef PADAX_WITH_CUDA
    if (is_gpu()) {
      cudaStream_t s = detail::CurrentStream();
      void* p = nullptr;
      if (cudaMallocAsync(&p, n, s) != cudaSuccess || cudaMemsetAsync(p, 0, n, s) != cudaSuccess)
        PD_THROW("paddle::empty: cannot allocate ", n, " bytes on the GPU");
      owned_ = std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [s](uint8_t* q) { cudaFreeAsync(q, s); });
      data_ = owned_.get();
      return;
    }
#endif
    owned_ = std::shared_ptr<uint8_t>(new uint8_t[n](), std::default_delete<uint8_t[]>());
    data_ = owned_.get();
  }
#ifdef PADAX_WITH_CUDA
  cudaStream_t stream() const { return detail::CurrentStream(); }
#endif

 private:
  template <typename T>
  void check_type(const char* what) const {
    constexpr DataType want = detail::TypeOf<T>::value;
    if (want != DataType::UNDEFINED && dtype_ != DataType::UNDEFINED && want != dtype_ &&
        SizeOf(want) != SizeOf(dtype_))
      PD_THROW("Tensor::", what, "<", DataTypeToString(want), ">() on a tensor of dtype ",
               DataTypeToString(dtype_));
  }
  std::shared_ptr<uint8_t> owned_;
  void* data_ = nullptr;
  std::vector<int64_t> shape_;
  DataType dtype_ = DataType::UNDEFINED;
  Place place_;
};

inline Tensor empty(const std::vector<int64_t>& shape, DataType dtype = DataType::FLOAT32,
                    const Place& place = CPUPlace()) {
  Tensor t = Tensor::View(nullptr, shape, dtype, place);
  t.allocate();
  return t;
}
inline Tensor empty_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = Place()) {
  return empty(x.shape(), dtype == DataType::UNDEFINED ? x.dtype() : dtype, place);
}
template <typename V>
Tensor full(const std::vector<int64_t>& shape, V value, DataType dtype = DataType::FLOAT32,
            const Place& place = CPUPlace()) {
  Tensor t = empty(shape, dtype, place);
  int64_t n = t.numel();
  switch (dtype) {
#define PADAX_FILL(D, T) case DataType::D: std::fill_n(static_cast<T*>(t.data()), n, static_cast<T>(value)); break;
    PADAX_FILL(BOOL, bool) PADAX_FILL(INT8, int8_t) PADAX_FILL(INT16, int16_t) PADAX_FILL(INT32, int32_t)
    PADAX_FILL(INT64, int64_t) PADAX_FILL(UINT8, uint8_t) PADAX_FILL(FLOAT32, float) PADAX_FILL(FLOAT64, double)
#undef PADAX_FILL
    default: PD_THROW("paddle::full: dtype ", DataTypeToString(dtype), " is not supported by padax");
  }
  return t;
}
template <typename V>
Tensor full_like(const Tensor& x, V value, DataType dtype = DataType::UNDEFINED, const Place& place = Place()) {
  return full(x.shape(), value, dtype == DataType::UNDEFINED ? x.dtype() : dtype, place);
}
inline Tensor zeros(const std::vector<int64_t>& shape, DataType dtype = DataType::FLOAT32,
                    const Place& place = CPUPlace()) {
  return empty(shape, dtype, place);  // (allocate zeroes the memory)
}
inline Tensor zeros_like(const Tensor& x) { return empty_like(x); }
inline Tensor ones_like(const Tensor& x) { return full_like(x, 1); }

// ---- dispatch over element types -------------------------------------------------------------
#define PD_PRIVATE_CASE_TYPE(NAME, enum_type, type, ...) \
  case enum_type: {                                      \
    using data_t = type;                                 \
    __VA_ARGS__();                                       \
    break;                                               \
  }

#define PD_PRIVATE_FLOATING_CASES(NAME, ...)                                                  \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::FLOAT32, float, __VA_ARGS__)                 \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::FLOAT64, double, __VA_ARGS__)

#define PD_PRIVATE_INTEGRAL_CASES(NAME, ...)                                                  \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT32, int, __VA_ARGS__)                     \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT64, int64_t, __VA_ARGS__)                 \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT8, int8_t, __VA_ARGS__)                   \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::UINT8, uint8_t, __VA_ARGS__)                 \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT16, int16_t, __VA_ARGS__)

// a switch over the element type whose cases are CASES; other types throw (the kernel's error)
#define PD_PRIVATE_DISPATCH(TYPE, NAME, CASES)                                                \
  [&] {                                                                                       \
    const auto& __dtype__ = TYPE;                                                             \
    switch (__dtype__) {                                                                      \
      CASES                                                                                   \
      default:                                                                                \
        PD_THROW("function " NAME " is not implemented for data type `", __dtype__, "`");     \
    }                                                                                         \
  }()

#define PD_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  PD_PRIVATE_DISPATCH(TYPE, NAME, PD_PRIVATE_FLOATING_CASES(NAME, __VA_ARGS__))
#define PD_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_PRIVATE_DISPATCH(TYPE, NAME, PD_PRIVATE_INTEGRAL_CASES(NAME, __VA_ARGS__))
#define PD_DISPATCH_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_PRIVATE_DISPATCH(TYPE, NAME, PD_PRIVATE_FLOATING_CASES(NAME, __VA_ARGS__) PD_PRIVATE_INTEGRAL_CASES(NAME, __VA_ARGS__))

// ---- the op registry ---------------------------------------------------------------------------
inline std::string Grad(const std::string& name) { return name + "@GRAD"; }

namespace detail {

// One attribute value, parsed from the text padax sends (one line per declared attribute).
struct Attr {
  std::string text;
  int64_t as_int() const { return std::strtoll(text.c_str(), nullptr, 10); }
  double as_double() const { return std::strtod(text.c_str(), nullptr); }
  std::vector<std::string> words() const {
    std::vector<std::string> out;
    std::istringstream is(text);
    std::string w;
    while (is >> w) out.push_back(w);
    return out;
  }
  static std::string unhex(const std::string& h) {
    std::string s;
    for (size_t i = 0; i + 1 < h.size(); i += 2) s.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
    return s;
  }
};

template <typename T> struct AttrAs;
template <> struct AttrAs<bool> { static bool get(const Attr& a) { return a.as_int() != 0; } };
template <> struct AttrAs<int> { static int get(const Attr& a) { return static_cast<int>(a.as_int()); } };
template <> struct AttrAs<int64_t> { static int64_t get(const Attr& a) { return a.as_int(); } };
template <> struct AttrAs<float> { static float get(const Attr& a) { return static_cast<float>(a.as_double()); } };
template <> struct AttrAs<double> { static double get(const Attr& a) { return a.as_double(); } };
template <> struct AttrAs<std::string> { static std::string get(const Attr& a) { return Attr::unhex(a.text); } };
template <typename T> struct AttrAs<std::vector<T>> {
  static std::vector<T> get(const Attr& a) {
    std::vector<T> out;
    for (const auto& w : a.words()) out.push_back(AttrAs<T>::get(Attr{w}));
    return out;
  }
};

using KernelFn = std::vector<Tensor> (*)(const std::vector<Tensor>&, const std::vector<Attr>&);
using InferShapeFn = std::vector<std::vector<int64_t>> (*)(const std::vector<std::vector<int64_t>>&,
                                                          const std::vector<Attr>&);
using InferDtypeFn = std::vector<DataType> (*)(const std::vector<DataType>&, const std::vector<Attr>&);

struct OpInfo {
  std::string name;
  std::vector<std::string> inputs, outputs, attrs, inplace;
  KernelFn kernel = nullptr;
  InferShapeFn infer_shape = nullptr;
  InferDtypeFn infer_dtype = nullptr;
  std::string unsupported;  // why padax cannot run this op (e.g. a vector<Tensor> input), or empty
};

inline std::vector<OpInfo>& Registry() {
  static std::vector<OpInfo> ops;
  return ops;
}

// Positional arguments of a user function: tensors (or shapes / dtypes) first, then attributes.
template <typename In, typename T> struct Arg {
  static T get(const std::vector<In>&, size_t&, const std::vector<Attr>& attrs, size_t& ai) {
    if (ai >= attrs.size()) PD_THROW("the function takes more attributes than the op declares (.Attrs)");
    return AttrAs<T>::get(attrs[ai++]);
  }
};
template <typename In> struct Arg<In, In> {
  static const In& get(const std::vector<In>& ins, size_t& ti, const std::vector<Attr>&, size_t&) {
    if (ti >= ins.size()) PD_THROW("the function takes more inputs than the op declares (.Inputs)");
    return ins[ti++];
  }
};

template <typename In, typename R, typename... Args>
R CallWith(R (*fn)(Args...), const std::vector<In>& ins, const std::vector<Attr>& attrs) {
  size_t ti = 0, ai = 0;
  // braced initialisation evaluates the arguments left to right
  std::tuple<decltype(Arg<In, std::decay_t<Args>>::get(ins, ti, attrs, ai))...> args{
      Arg<In, std::decay_t<Args>>::get(ins, ti, attrs, ai)...};
  return std::apply(fn, std::move(args));
}

template <typename F, F f> struct KernelImpl;
template <typename... Args, std::vector<Tensor> (*f)(Args...)>
struct KernelImpl<std::vector<Tensor> (*)(Args...), f> {
  static_assert((... && !std::is_same_v<std::decay_t<Args>, std::vector<Tensor>>),
                "padax: kernels with std::vector<paddle::Tensor> inputs are not supported");
  static std::vector<Tensor> Compute(const std::vector<Tensor>& ins, const std::vector<Attr>& attrs) {
    return CallWith<Tensor>(f, ins, attrs);
  }
};
template <typename F, F f> struct InferShapeImpl;
template <typename... Args, std::vector<std::vector<int64_t>> (*f)(Args...)>
struct InferShapeImpl<std::vector<std::vector<int64_t>> (*)(Args...), f> {
  static std::vector<std::vector<int64_t>> Infer(const std::vector<std::vector<int64_t>>& ins,
                                                 const std::vector<Attr>& attrs) {
    return CallWith<std::vector<int64_t>>(f, ins, attrs);
  }
};
template <typename F, F f> struct InferDtypeImpl;
template <typename... Args, std::vector<DataType> (*f)(Args...)>
struct InferDtypeImpl<std::vector<DataType> (*)(Args...), f> {
  static std::vector<DataType> Infer(const std::vector<DataType>& ins, const std::vector<Attr>& attrs) {
    return CallWith<DataType>(f, ins, attrs);
  }
};

}  // namespace detail

class OpMetaInfoBuilder {
 public:
  OpMetaInfoBuilder(std::string name, int index) {
    auto& reg = detail::Registry();
    idx_ = reg.size();
    reg.emplace_back();
    reg.back().name = index == 0 ? name : index == 1 ? name + "_grad" : name + "_grad_grad";
  }
  OpMetaInfoBuilder& Inputs(std::vector<std::string> xs) {
    for (const auto& x : xs)
      if (x.rfind("paddle::Vec:", 0) == 0 || x.rfind("paddle::Optional:", 0) == 0 || x.find("@VECTOR") != std::string::npos ||
          x.find("@OPTIONAL") != std::string::npos)
        info().unsupported = "input " + x + " (vector and optional inputs are not supported by padax)";
    info().inputs = std::move(xs);
    return *this;
  }
  OpMetaInfoBuilder& Outputs(std::vector<std::string> xs) { info().outputs = std::move(xs); return *this; }
  OpMetaInfoBuilder& Attrs(std::vector<std::string> xs) { info().attrs = std::move(xs); return *this; }
  template <typename M>
  OpMetaInfoBuilder& SetInplaceMap(M&&) {
    info().unsupported = "SetInplaceMap (padax's arrays are immutable; return a new output instead)";
    return *this;
  }
  OpMetaInfoBuilder& SetKernelFn(detail::KernelFn fn) { info().kernel = fn; return *this; }
  OpMetaInfoBuilder& SetInferShapeFn(detail::InferShapeFn fn) { info().infer_shape = fn; return *this; }
  OpMetaInfoBuilder& SetInferDtypeFn(detail::InferDtypeFn fn) { info().infer_dtype = fn; return *this; }

 private:
  detail::OpInfo& info() { return detail::Registry()[idx_]; }
  size_t idx_;
};

}  // namespace paddle

#define PD_KERNEL(...) (&::paddle::detail::KernelImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::Compute)
#define PD_INFER_SHAPE(...) (&::paddle::detail::InferShapeImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::Infer)
#define PD_INFER_DTYPE(...) (&::paddle::detail::InferDtypeImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::Infer)

#define PADAX_CONCAT_(a, b) a##b
#define PADAX_CONCAT(a, b) PADAX_CONCAT_(a, b)
#define PD_BUILD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PADAX_CONCAT(__op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 0)
#define PD_BUILD_GRAD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PADAX_CONCAT(__grad_op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 1)
#define PD_BUILD_DOUBLE_GRAD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PADAX_CONCAT(__grad_grad_op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 2)

#include "paddle/padax_ext_abi.h"
