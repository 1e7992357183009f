// AutoTest reproducer: sqrt, seed 33001.
// sqrt(int64[]) with default dtype float64: dtype float32 vs libtorch float64
// Save as tests/autotest/repro.cc, then: bazel run //tests/autotest:repro

#include <cmath>
#include <iostream>
#include <limits>

#include "tests/autotest/reproducer_support.h"

using namespace oneflow_promote;
using namespace oneflow_promote::autotest;

int main() {
  testing::SetTorchDefaultDType(DType::kFloat64);
  functional::OpOptions options;
  options.promotion.default_dtype = DType::kFloat64;
  std::vector<Operand> operands;
  std::vector<Tensor> ours;
  std::vector<at::Tensor> theirs;
  // int64[]
  {
    const std::vector<uint8_t> bytes = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    ours.push_back(OursFromBytes(DType::kInt64, {}, bytes, false));
    theirs.push_back(TorchFromBytes(DType::kInt64, {}, bytes, false));
    operands.push_back(ours.back().AsOperand());
  }
  PrintOurs(functional::Call(ops::Op::kSqrt, ours, options));
  try {
    PrintTorch(testing::RunTorchOp(ops::Op::kSqrt, operands, theirs));
  } catch (const std::exception& e) {
    std::cout << "libtorch error: " << e.what() << "\n";
  }
  return 0;
}
