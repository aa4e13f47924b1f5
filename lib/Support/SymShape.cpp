//===- SymShape.cpp - Symbolic shapes shared by relax and tir -------------===//
//
// The parser reads dims straight from MLIR's token stream instead of slicing
// raw text, so errors carry the exact source location and the syntax composes
// with the rest of a type or attribute body.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Support/SymShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::relax;

SymShape SymShape::fromStatic(ArrayRef<int64_t> sizes) {
  SmallVector<sym::Expr> dims;
  for (int64_t s : sizes)
    dims.push_back(sym::Expr::constant(s));
  return SymShape(dims);
}

bool SymShape::isStatic() const {
  return ranked && llvm::all_of(dims, [](const sym::Expr &d) {
           return d && d.getConstant().has_value();
         });
}

std::optional<SmallVector<int64_t>> SymShape::getStaticSizes() const {
  if (!isStatic())
    return std::nullopt;
  SmallVector<int64_t> sizes;
  for (const sym::Expr &d : dims)
    sizes.push_back(*d.getConstant());
  return sizes;
}

bool SymShape::isFullyKnown() const {
  return ranked && llvm::all_of(dims, [](const sym::Expr &d) { return !!d; });
}

sym::Expr SymShape::getNumElements() const {
  if (!isFullyKnown())
    return sym::Expr();
  sym::Expr n = sym::Expr::constant(1);
  for (const sym::Expr &d : dims)
    n = n * d;
  return n;
}

SmallVector<std::string> SymShape::getVars() const {
  SmallVector<std::string> all;
  for (const sym::Expr &d : dims)
    if (d)
      d.collectVars(all);
  llvm::sort(all);
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

SymShape SymShape::substitute(const llvm::StringMap<sym::Expr> &map) const {
  if (!ranked)
    return *this;
  SmallVector<sym::Expr> out;
  for (const sym::Expr &d : dims)
    out.push_back(d ? d.substitute(map) : d);
  return SymShape(out);
}

llvm::hash_code mlir::relax::hash_value(const SymShape &s) {
  llvm::hash_code h = llvm::hash_value(s.ranked);
  for (const sym::Expr &d : s.dims)
    h = llvm::hash_combine(h, d ? hash_value(d) : llvm::hash_code(0));
  return h;
}

void mlir::relax::printSymDim(llvm::raw_ostream &os, const sym::Expr &dim) {
  if (!dim)
    os << "?";
  else
    dim.print(os);
}

void SymShape::print(llvm::raw_ostream &os) const {
  if (!ranked) {
    os << "*";
    return;
  }
  os << "[";
  llvm::interleaveComma(dims, os,
                        [&](const sym::Expr &d) { printSymDim(os, d); });
  os << "]";
}

std::string SymShape::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

void mlir::relax::printSymShape(AsmPrinter &printer, const SymShape &shape) {
  shape.print(printer.getStream());
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Precedence-climbing parser over AsmParser tokens:
///   expr    := term (('+' | '-') term)*
///   term    := unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*
///   unary   := '-' unary | primary
///   primary := integer | identifier | '(' expr ')'
///            | ('min' | 'max') '(' expr ',' expr ')'
class SymExprParser {
public:
  explicit SymExprParser(AsmParser &parser) : parser(parser) {}

  ParseResult parseExpr(sym::Expr &result) {
    if (parseTerm(result))
      return failure();
    while (true) {
      sym::Expr rhs;
      if (succeeded(parser.parseOptionalPlus())) {
        if (parseTerm(rhs))
          return failure();
        result = result + rhs;
      } else if (succeeded(parser.parseOptionalMinus())) {
        if (parseTerm(rhs))
          return failure();
        result = result - rhs;
      } else {
        return success();
      }
    }
  }

private:
  ParseResult parseTerm(sym::Expr &result) {
    if (parseUnary(result))
      return failure();
    while (true) {
      sym::Expr rhs;
      if (succeeded(parser.parseOptionalStar())) {
        if (parseUnary(rhs))
          return failure();
        result = result * rhs;
      } else if (succeeded(parser.parseOptionalKeyword("floordiv"))) {
        if (parseUnary(rhs))
          return failure();
        result = sym::floorDiv(result, rhs);
      } else if (succeeded(parser.parseOptionalKeyword("ceildiv"))) {
        if (parseUnary(rhs))
          return failure();
        result = sym::ceilDiv(result, rhs);
      } else if (succeeded(parser.parseOptionalKeyword("mod"))) {
        if (parseUnary(rhs))
          return failure();
        result = sym::mod(result, rhs);
      } else {
        return success();
      }
    }
  }

  ParseResult parseUnary(sym::Expr &result) {
    if (succeeded(parser.parseOptionalMinus())) {
      if (parseUnary(result))
        return failure();
      result = -result;
      return success();
    }
    return parsePrimary(result);
  }

  ParseResult parsePrimary(sym::Expr &result) {
    int64_t value;
    OptionalParseResult intResult = parser.parseOptionalInteger(value);
    if (intResult.has_value()) {
      if (failed(*intResult))
        return failure();
      result = sym::Expr::constant(value);
      return success();
    }
    if (succeeded(parser.parseOptionalLParen())) {
      if (parseExpr(result) || parser.parseRParen())
        return failure();
      return success();
    }
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (failed(parser.parseOptionalKeyword(&name)))
      return parser.emitError(loc, "expected a symbolic dimension expression "
                                   "(integer, variable, '(' or min/max)");
    if (name == "min" || name == "max") {
      sym::Expr lhs, rhs;
      if (parser.parseLParen() || parseExpr(lhs) || parser.parseComma() ||
          parseExpr(rhs) || parser.parseRParen())
        return failure();
      result = name == "min" ? sym::min(lhs, rhs) : sym::max(lhs, rhs);
      return success();
    }
    if (name == "floordiv" || name == "ceildiv" || name == "mod" ||
        !isValidVarName(name))
      return parser.emitError(loc, "invalid symbolic variable name '")
             << name << "'";
    result = sym::Expr::var(name);
    return success();
  }

  static bool isValidVarName(StringRef name) {
    if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
      return false;
    return llvm::all_of(name,
                        [](char c) { return llvm::isAlnum(c) || c == '_'; });
  }

  AsmParser &parser;
};
} // namespace

ParseResult mlir::relax::parseSymExpr(AsmParser &parser, sym::Expr &result,
                                      bool allowUnknown) {
  if (allowUnknown && succeeded(parser.parseOptionalQuestion())) {
    result = sym::Expr();
    return success();
  }
  return SymExprParser(parser).parseExpr(result);
}

ParseResult mlir::relax::parseSymShape(AsmParser &parser, SymShape &result) {
  if (succeeded(parser.parseOptionalStar())) {
    result = SymShape::unranked();
    return success();
  }
  SmallVector<sym::Expr> dims;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            sym::Expr dim;
            if (parseSymExpr(parser, dim, /*allowUnknown=*/true))
              return failure();
            dims.push_back(dim);
            return success();
          }))
    return failure();
  result = SymShape(dims);
  return success();
}
