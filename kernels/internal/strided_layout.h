// A strided source view reduced to its simplest equivalent form, and the
// row-major index -> source offset map that the CPU and CUDA strided kernels
// share.

#ifndef ONEFLOW_PROMOTE_KERNELS_INTERNAL_STRIDED_LAYOUT_H_
#define ONEFLOW_PROMOTE_KERNELS_INTERNAL_STRIDED_LAYOUT_H_

#include <cstdint>

#include "oneflow_promote/numeric_types.h"

namespace oneflow_promote::cast_internal {

inline constexpr int kMaxRank = 8;

// Sizes and source strides (in elements), outermost first. A plain struct:
// it is passed by value to CUDA kernels.
struct StridedLayout {
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};

  // Elements in one innermost row, and the row count.
  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t inner_size() const {
    return rank == 0 ? 1 : sizes[rank - 1];
  }
  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t inner_stride() const {
    return rank == 0 ? 1 : strides[rank - 1];
  }

  // The source offset, in elements, of the element at row-major `index`.
  [[nodiscard]] ONEFLOW_PROMOTE_HOST_DEVICE int64_t Offset(int64_t index) const {
    int64_t offset = 0;
    for (int d = rank - 1; d > 0; --d) {
      offset += (index % sizes[d]) * strides[d];
      index /= sizes[d];
    }
    return rank == 0 ? 0 : offset + index * strides[0];
  }

  // True when the view is one contiguous run (stride 1, or a single element).
  [[nodiscard]] bool is_contiguous() const {
    return rank == 0 || (rank == 1 && (strides[0] == 1 || sizes[0] <= 1));
  }
};

// Drops extent-1 dimensions and merges each dimension into the next one
// inwards when the pair walks memory as one dimension would. The result
// visits the same offsets in the same order. Sizes must be >= 1.
[[nodiscard]] inline StridedLayout Coalesce(int rank, const int64_t* sizes,
                                            const int64_t* strides) {
  StridedLayout layout;
  for (int d = 0; d < rank; ++d) {
    if (sizes[d] == 1) continue;
    const int last = layout.rank - 1;
    if (last >= 0 && layout.strides[last] == sizes[d] * strides[d]) {
      layout.sizes[last] *= sizes[d];
      layout.strides[last] = strides[d];
      continue;
    }
    layout.sizes[layout.rank] = sizes[d];
    layout.strides[layout.rank] = strides[d];
    ++layout.rank;
  }
  return layout;
}

}  // namespace oneflow_promote::cast_internal

#endif  // ONEFLOW_PROMOTE_KERNELS_INTERNAL_STRIDED_LAYOUT_H_
