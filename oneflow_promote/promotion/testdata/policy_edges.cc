// Compiled by lattice_compile_test.sh: a policy is accepted only when its
// edges form a lattice. Exactly one of CYCLE, NO_LEAST_UPPER_BOUND or
// VALID is defined on the command line.

#include "oneflow_promote/promotion/internal/lattice.h"

namespace op = oneflow_promote;
using D = op::DType;

#if defined(CYCLE)
constexpr op::Edge kEdges[] = {{D::kInt8, D::kInt16}, {D::kInt16, D::kInt8}};
#elif defined(NO_LEAST_UPPER_BOUND)
// int16 and int32 are both minimal upper bounds of int8 and uint8.
constexpr op::Edge kEdges[] = {
    {D::kInt8, D::kInt16}, {D::kUInt8, D::kInt16}, {D::kInt8, D::kInt32}, {D::kUInt8, D::kInt32}};
#elif defined(VALID)
constexpr op::Edge kEdges[] = {
    {D::kInt8, D::kInt16}, {D::kUInt8, D::kInt16}, {D::kInt16, D::kInt32}};
#endif

using Policy = op::Lattice<kEdges>;
static_assert(Policy::Reaches(D::kInt8, D::kInt16));

int main() { return 0; }
