// An op echoing its attributes of every supported type, and one with two sources (with custom_relu.cc).
#include <vector>

#include "paddle/extension.h"

std::vector<paddle::Tensor> EchoAttrs(const paddle::Tensor& x, float scale, int n, bool flag, std::string tag,
                                      std::vector<int64_t> offsets, double d) {
  auto out = paddle::empty({6}, paddle::DataType::FLOAT64, x.place());
  double* o = out.mutable_data<double>();
  double s = 0;
  for (auto v : offsets) s += double(v);
  o[0] = scale;
  o[1] = n;
  o[2] = flag ? 1 : 0;
  o[3] = double(tag.size()) + (tag == "hello world\n" ? 100 : 0);
  o[4] = s;
  o[5] = d;
  return {out};
}

std::vector<std::vector<int64_t>> EchoShape(const std::vector<int64_t>& x) { return {{6}}; }
std::vector<paddle::DataType> EchoDtype(paddle::DataType x) { return {paddle::DataType::FLOAT64}; }

PD_BUILD_OP(echo_attrs)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"scale: float", "n: int", "flag: bool", "tag: std::string", "offsets: std::vector<int64_t>", "d: double"})
    .SetKernelFn(PD_KERNEL(EchoAttrs))
    .SetInferShapeFn(PD_INFER_SHAPE(EchoShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(EchoDtype));

// returns an output of the wrong size (a kernel bug padax must report as the kernel's)
std::vector<paddle::Tensor> WrongSize(const paddle::Tensor& x) {
  auto out = paddle::full({x.numel() + 1}, 0.0, x.dtype(), x.place());
  return {out};
}

PD_BUILD_OP(wrong_size).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(WrongSize));
