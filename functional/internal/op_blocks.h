// A testing hook of the CPU elementwise kernels (op_kernels.h): on x86-64
// their binary loops over bool, integers, float32 and float64 run as AVX2
// code where the processor has it, and as baseline code elsewhere; tests
// force the baseline to compare the two bit for bit.

#ifndef ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_BLOCKS_H_
#define ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_BLOCKS_H_

namespace oneflow_promote::functional_internal {

// Whether the baseline loops run even where the processor has AVX2.
[[nodiscard]] bool BaselineBlocksForced();
void ForceBaselineBlocks(bool force);

}  // namespace oneflow_promote::functional_internal

#endif  // ONEFLOW_PROMOTE_FUNCTIONAL_INTERNAL_OP_BLOCKS_H_
