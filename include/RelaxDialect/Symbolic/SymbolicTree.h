//===- SymbolicTree.h - Structural view of a symbolic expression -*- C++ -*-===//
//
// Code generators (shape lowering, tir-to-scf) need to walk an expression's
// canonical form to emit index arithmetic. The canonical nodes are private to
// lib/Symbolic so that nobody can build a non-canonical Expr; this header
// exposes a read-only tree copy instead.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_SYMBOLIC_SYMBOLICTREE_H
#define RELAXDIALECT_SYMBOLIC_SYMBOLICTREE_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include <string>
#include <vector>

namespace mlir::relax::sym {

/// A plain expression tree. Add and Mul are n-ary; FloorDiv and Mod are
/// binary with floor semantics; Min and Max have two or more operands.
struct Tree {
  enum class Kind { Constant, Var, Add, Mul, FloorDiv, Mod, Min, Max };
  Kind kind = Kind::Constant;
  int64_t value = 0; // Kind::Constant
  std::string name;  // Kind::Var
  std::vector<Tree> operands;
};

/// The canonical form of `expr` as a tree: a sum of `coeff * factors` terms
/// plus a constant (terms with coefficient 1 and a zero constant are not
/// spelled out). `expr` must be non-null.
Tree toTree(const Expr &expr);

} // namespace mlir::relax::sym

#endif // RELAXDIALECT_SYMBOLIC_SYMBOLICTREE_H
