//===- ConvLayouts.h - Plan of the fused convolutions ------------*- C++
//-*-===//
//
// The part of --relax-dispatch-library that decides, for a whole function
// at once and before any call is made, which conv2d ops become the fused
// convolution built-in, the epilogue each absorbs and the layout each
// writes (docs/extern.md, "Layouts").
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_CONVLAYOUTS_H
#define RELAXDIALECT_RELAX_TRANSFORMS_CONVLAYOUTS_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include <array>
#include <optional>

namespace mlir {
namespace relax {

/// The layout of a fused convolution's tensor, as the built-in's options
/// say it (options 9 to 11). `Private` is typed NHWC; only fused
/// convolutions read it, and the runtime keeps it in oneDNN's blocked
/// layout where the channels allow (lib/Runtime/Convolution.cpp), so that
/// no reorder runs between two convolutions.
enum class ConvLayout : int64_t { Nchw = 0, Nhwc = 1, Private = 2 };

/// The conv2d epilogue the fused built-in absorbs: a per-channel bias, a
/// residual of the output's type, a ReLU, in that order, each optional and
/// each the only user of the value before it.
struct ConvEpilogue {
  /// The last op absorbed (the conv itself when none), whose result the
  /// call replaces.
  Operation *last = nullptr;
  SmallVector<Operation *> ops;
  /// A rank-1 [o] bias (existing), or a constant to make from `biasAttr`.
  Value bias;
  DenseElementsAttr biasAttr;
  /// The residual operand of the absorbed add: read when the call is made,
  /// as the call that writes the residual may have replaced it by then.
  OpOperand *residual = nullptr;
  bool relu = false;
};

/// One conv2d that becomes the fused built-in, with what its call reads and
/// writes.
struct FusedConvPlan {
  Conv2DOp conv;
  ConvEpilogue epilogue;
  /// stride h, w; pad top, left, bottom, right; dilation h, w; groups.
  std::array<int64_t, 9> window;
  ConvLayout output = ConvLayout::Nchw;
  /// The output is NHWC because channels-last views (permute_dims [0, 2, 3,
  /// 1]) alone read it: the call replaces them.
  bool replacesNhwcViews = false;
};

/// The fused convolutions of `root` (CPU target), in the order their calls
/// must be made: by the op each call replaces, so that a call is made after
/// the calls whose outputs it reads. Each output's layout is decided from
/// its users alone: NHWC when only channels-last views read it, private
/// when only fused convolutions of this plan read it (f32, as input or as
/// the residual their epilogue adds), NCHW otherwise.
SmallVector<FusedConvPlan> planFusedConvs(Operation *root);

/// conv2d's window as the built-ins take it, or nullopt for one the
/// legalizer would reject (left to it, so its diagnostic stays).
std::optional<std::array<int64_t, 9>> convWindow(Conv2DOp op);

/// Whether `op` reads an NHWC tensor as NCHW (`axes = [0, 3, 1, 2]`): the
/// fused convolution reads such tensors in place.
bool isNhwcToNchw(PermuteDimsOp op);

/// The only user of `v`, or null.
Operation *soleUser(Value v);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_CONVLAYOUTS_H
