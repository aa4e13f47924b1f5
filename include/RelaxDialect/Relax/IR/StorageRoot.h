//===- StorageRoot.h - The buffer a relax value lives in --------*- C++ -*-===//
//
// relax.call_tir_inplace writes into its updated input's buffer, and that
// buffer may be reached under other names: a relax.view or match_cast of it,
// a field of a tuple that holds it, an earlier in-place result, a dataflow
// region's result, the result of a relax.call whose callee returns a
// parameter (the caller's argument) or a relax.constant. Every decision
// about in-place updates (the verifier, --relax-group-ops, --relax-fuse-tir,
// --relax-lower-shapes) asks this file which storage a value is, so they
// agree on what aliases what, and none is fooled by a cast or a call
// wrapped around a constant.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_STORAGEROOT_H
#define RELAXDIALECT_RELAX_IR_STORAGEROOT_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace relax {

/// The storage of a value: `value` (the op result or parameter that owns
/// the buffer), and where the storage is a field of a tuple that the
/// analysis cannot take apart (a tuple parameter, a tuple a callee builds
/// from fresh buffers), the path of fields into it, outermost first.
struct StorageRoot {
  Value value;
  llvm::SmallVector<int64_t, 2> fields;
  /// The ops followed from the queried value to the root, in that order
  /// (for diagnostics; not part of the root's identity).
  llvm::SmallVector<Operation *, 4> through;

  /// The relax.constant whose storage this is (in the queried value's
  /// function, or in a callee reached through relax.call), or null.
  ConstantOp getConstant() const;
  /// Whether two roots may share bytes: the same value and one field path
  /// a prefix of the other (a whole tuple holds each of its fields).
  bool overlaps(const StorageRoot &other) const;
  /// "relax.match_cast, relax.call @f": the ops in `through`, for messages.
  std::string describeThrough() const;
};

/// The storage root of `value`: follows relax.view and match_cast to what
/// they view, an updated result of relax.call_tir_inplace to its input,
/// relax.tuple_get_item to the field of a relax.tuple, a dataflow region's
/// result to its output, and a relax.call's result into the callee (a
/// returned parameter continues at the call's operand; a returned constant
/// is the root; a buffer the callee creates makes the call's result the
/// root). `symbols` caches callee lookups; without it each relax.call is
/// looked up in the nearest symbol table.
StorageRoot getStorageRoot(Value value,
                           SymbolTableCollection *symbols = nullptr);

/// A value sharing some root's storage: `value` itself, or with `fields`,
/// that field path of a tuple `value`.
struct StorageAlias {
  Value value;
  llvm::SmallVector<int64_t, 2> fields;
};

/// Every value that shares `root`'s storage, `root.value` first: the
/// forward closure of the edges getStorageRoot follows backward. The
/// results of `exclude` (the in-place call asking: its results are the new
/// value) are not followed.
llvm::SmallVector<StorageAlias>
getStorageAliases(const StorageRoot &root, Operation *exclude,
                  SymbolTableCollection *symbols = nullptr);

/// The checks on storage that need the callees (run by verifySymbolUses,
/// and again by --relax-lower-shapes for IR that was never verified):
///  - relax.call_tir_inplace: no updated input shares the storage of a
///    relax.constant, and no value sharing an updated input's storage is
///    read after the call;
///  - relax.call: no operand sharing a relax.constant's storage is passed
///    to a parameter that the callee (or a function it calls) updates in
///    place.
/// Emits a located error naming the operand and the root.
LogicalResult verifyInPlaceStorage(CallTIRInplaceOp op,
                                   SymbolTableCollection &symbols);
LogicalResult verifyInPlaceStorage(CallOp op, SymbolTableCollection &symbols);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_STORAGEROOT_H
