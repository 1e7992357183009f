// Marks a 0-d tensor as a wrapped number, as PyTorch's C++ front end marks a
// Python scalar passed where a Tensor is expected. Python has no API for it,
// and without it torch.maximum(1.5, t) or torch.sum(1.5) cannot be called the
// way libtorch's oracle tests call them. Built by cli_vs_torch.py with g++
// against the installed torch's headers; loaded with ctypes.

#include <c10/core/TensorImpl.h>

extern "C" int oneflow_promote_set_wrapped_number(void* tensor_impl) {
  auto* impl = static_cast<c10::TensorImpl*>(tensor_impl);
  if (impl->dim() != 0) return 1;
  impl->set_wrapped_number(true);
  return impl->is_wrapped_number() ? 0 : 2;
}
