//===- SymbolicTree.cpp - Structural view of a symbolic expression --------===//

#include "RelaxDialect/Symbolic/SymbolicTree.h"

#include "ExprNodes.h"

using namespace mlir::relax::sym;
using namespace mlir::relax::sym::detail;

static Tree makeConstant(int64_t value) {
  Tree t;
  t.kind = Tree::Kind::Constant;
  t.value = value;
  return t;
}

static Tree atomToTree(const AtomNode &atom) {
  Tree t;
  switch (atom.kind) {
  case AtomKind::Var:
    t.kind = Tree::Kind::Var;
    t.name = atom.name;
    return t;
  case AtomKind::FloorDiv:
    t.kind = Tree::Kind::FloorDiv;
    break;
  case AtomKind::Mod:
    t.kind = Tree::Kind::Mod;
    break;
  case AtomKind::Min:
    t.kind = Tree::Kind::Min;
    break;
  case AtomKind::Max:
    t.kind = Tree::Kind::Max;
    break;
  }
  for (const Expr &operand : atom.operands)
    t.operands.push_back(toTree(operand));
  return t;
}

Tree mlir::relax::sym::toTree(const Expr &expr) {
  const PolyNode *node = expr.getNode();
  std::vector<Tree> summands;
  for (const Term &term : node->terms) {
    Tree product;
    product.kind = Tree::Kind::Mul;
    if (term.coeff != 1)
      product.operands.push_back(makeConstant(term.coeff));
    for (const Atom &factor : term.factors)
      product.operands.push_back(atomToTree(*factor));
    summands.push_back(product.operands.size() == 1
                           ? std::move(product.operands.front())
                           : std::move(product));
  }
  if (node->constant != 0 || summands.empty())
    summands.push_back(makeConstant(node->constant));
  if (summands.size() == 1)
    return std::move(summands.front());
  Tree sum;
  sum.kind = Tree::Kind::Add;
  sum.operands = std::move(summands);
  return sum;
}
