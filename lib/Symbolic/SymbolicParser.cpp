//===- SymbolicParser.cpp - Text syntax of symbolic expressions -----------===//
//
// A small recursive-descent parser for the expression syntax used inside
// Relax types. It accepts exactly the tokens MLIR's AsmParser lexes
// (integers, identifiers, `+ - * ( ) ,`, keywords), so the dialect can
// either hand us the text or re-lex it itself. Expressions are built with
// the canonicalising builders as they are parsed; long sums are collected
// and built with one `sum` so that parsing stays O(n log n).
//
// Grammar (left-associative within a level):
//   expr    ::= term (('+' | '-') term)*
//   term    ::= unary (('*' | 'floordiv' | 'ceildiv' | 'mod') unary)*
//   unary   ::= '-' unary | primary
//   primary ::= integer | identifier | '(' expr ')'
//             | ('min' | 'max') '(' expr (',' expr)+ ')'
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace mlir::relax::sym;

namespace {

enum class Tok {
  End,
  Integer,
  Ident,
  Plus,
  Minus,
  Star,
  LParen,
  RParen,
  Comma,
  KwFloorDiv,
  KwCeilDiv,
  KwMod,
  KwMin,
  KwMax,
  Invalid
};

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text(text) { lex(); }

  Expr parseTop() {
    Expr e = parseExpr();
    if (!e)
      return Expr();
    if (tok == Tok::Invalid)
      return error("invalid character '" + tokText.str() + "'");
    if (tok != Tok::End)
      return error("unexpected '" + tokText.str() + "' after expression");
    return e;
  }

  std::string message;
  unsigned column = 0;

private:
  /// Records the first error at the current token.
  Expr error(const llvm::Twine &msg) { return errorAt(tokStart, msg); }
  Expr errorAt(size_t col, const llvm::Twine &msg) {
    if (!failed) {
      failed = true;
      message = msg.str();
      column = static_cast<unsigned>(col);
    }
    return Expr();
  }

  void lex() {
    while (pos < text.size() && isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
    tokStart = pos;
    if (pos == text.size()) {
      tok = Tok::End;
      tokText = "end of input";
      return;
    }
    char c = text[pos];
    auto single = [&](Tok t) {
      tok = t;
      tokText = text.substr(pos, 1);
      ++pos;
    };
    switch (c) {
    case '+':
      return single(Tok::Plus);
    case '-':
      return single(Tok::Minus);
    case '*':
      return single(Tok::Star);
    case '(':
      return single(Tok::LParen);
    case ')':
      return single(Tok::RParen);
    case ',':
      return single(Tok::Comma);
    default:
      break;
    }
    if (isdigit(static_cast<unsigned char>(c))) {
      size_t end = pos;
      while (end < text.size() && isdigit(static_cast<unsigned char>(text[end])))
        ++end;
      tok = Tok::Integer;
      tokText = text.slice(pos, end);
      pos = end;
      return;
    }
    if (isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t end = pos;
      while (end < text.size() &&
             (isalnum(static_cast<unsigned char>(text[end])) ||
              text[end] == '_'))
        ++end;
      tokText = text.slice(pos, end);
      pos = end;
      tok = llvm::StringSwitch<Tok>(tokText)
                .Case("floordiv", Tok::KwFloorDiv)
                .Case("ceildiv", Tok::KwCeilDiv)
                .Case("mod", Tok::KwMod)
                .Case("min", Tok::KwMin)
                .Case("max", Tok::KwMax)
                .Default(Tok::Ident);
      return;
    }
    tok = Tok::Invalid;
    tokText = text.substr(pos, 1);
  }

  Expr parseExpr() {
    llvm::SmallVector<Expr, 4> parts;
    llvm::SmallVector<size_t, 4> opCols;
    Expr first = parseTerm();
    if (!first)
      return Expr();
    parts.push_back(first);
    while (tok == Tok::Plus || tok == Tok::Minus) {
      bool neg = tok == Tok::Minus;
      opCols.push_back(tokStart);
      lex();
      Expr rhs = parseTerm();
      if (!rhs)
        return Expr();
      if (neg)
        rhs = -rhs;
      if (!rhs)
        return errorAt(opCols.back(), "integer overflow");
      parts.push_back(rhs);
    }
    Expr result = sum(parts);
    if (result)
      return result;
    // Rare: replay the additions one by one to blame the right operator.
    Expr acc = parts.front();
    for (size_t i = 1; i < parts.size(); ++i) {
      acc = acc + parts[i];
      if (!acc)
        return errorAt(opCols[i - 1], "integer overflow");
    }
    return errorAt(opCols.empty() ? 0 : opCols.back(), "integer overflow");
  }

  Expr parseTerm() {
    Expr lhs = parseUnary();
    while (lhs && (tok == Tok::Star || tok == Tok::KwFloorDiv ||
                   tok == Tok::KwCeilDiv || tok == Tok::KwMod)) {
      Tok op = tok;
      size_t opCol = tokStart;
      lex();
      Expr rhs = parseUnary();
      if (!rhs)
        return Expr();
      switch (op) {
      case Tok::Star:
        lhs = lhs * rhs;
        break;
      case Tok::KwFloorDiv:
        lhs = floorDiv(lhs, rhs);
        break;
      case Tok::KwCeilDiv:
        lhs = ceilDiv(lhs, rhs);
        break;
      default:
        lhs = mod(lhs, rhs);
        break;
      }
      if (!lhs)
        return errorAt(opCol, "integer overflow");
    }
    return lhs;
  }

  Expr parseUnary() {
    if (tok != Tok::Minus)
      return parsePrimary();
    size_t minusCol = tokStart;
    lex();
    // `-9223372036854775807` is read as one negative literal.
    Expr operand = parseUnary();
    if (!operand)
      return Expr();
    Expr neg = -operand;
    if (!neg)
      return errorAt(minusCol, "integer overflow");
    return neg;
  }

  Expr parsePrimary() {
    switch (tok) {
    case Tok::Integer: {
      uint64_t v;
      if (tokText.getAsInteger(10, v) || v > uint64_t(INT64_MAX))
        return error("integer literal '" + tokText.str() + "' out of range");
      lex();
      return Expr::constant(static_cast<int64_t>(v));
    }
    case Tok::Ident: {
      Expr v = Expr::var(tokText);
      lex();
      if (tok == Tok::LParen)
        return error("unexpected '(' after variable name; only min and max "
                     "are functions");
      return v;
    }
    case Tok::LParen: {
      lex();
      Expr e = parseExpr();
      if (!e)
        return Expr();
      if (tok != Tok::RParen)
        return error("expected ')'");
      lex();
      return e;
    }
    case Tok::KwMin:
    case Tok::KwMax: {
      bool isMin = tok == Tok::KwMin;
      lex();
      if (tok != Tok::LParen)
        return error(llvm::Twine("expected '(' after '") +
                     (isMin ? "min" : "max") + "'");
      lex();
      Expr acc = parseExpr();
      if (!acc)
        return Expr();
      unsigned count = 1;
      while (tok == Tok::Comma) {
        lex();
        Expr next = parseExpr();
        if (!next)
          return Expr();
        acc = isMin ? min(acc, next) : max(acc, next);
        ++count;
      }
      if (tok != Tok::RParen)
        return error(count == 1 ? "expected ',' in argument list"
                                : "expected ')' or ','");
      if (count < 2)
        return error("min/max need at least two arguments");
      lex();
      return acc;
    }
    case Tok::End:
      return error("expected expression, got end of input");
    case Tok::Invalid:
      return error("invalid character '" + tokText.str() + "'");
    default:
      return error("expected expression, got '" + tokText.str() + "'");
    }
  }

  llvm::StringRef text;
  size_t pos = 0;
  size_t tokStart = 0;
  Tok tok = Tok::End;
  llvm::StringRef tokText;
  bool failed = false;
};

} // namespace

Expr mlir::relax::sym::parse(llvm::StringRef text, std::string *errorMessage,
                             unsigned *errorColumn) {
  Parser parser(text);
  Expr result = parser.parseTop();
  if (!result) {
    if (errorMessage)
      *errorMessage = parser.message;
    if (errorColumn)
      *errorColumn = parser.column;
  }
  return result;
}
