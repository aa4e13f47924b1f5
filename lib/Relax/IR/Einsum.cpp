//===- Einsum.cpp - Parsing einsum equations ------------------------------===//
//
// A hand-written scanner (the grammar is a handful of characters) that
// reports the position of the first malformed character, then the
// expansion of `...` into broadcast labels once the operand ranks are known.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/Einsum.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::relax;

std::string EinsumSpec::describe(unsigned label) const {
  if (isBatch(label))
    return ("ellipsis dim " + Twine(label)).str();
  return (Twine("label '") + Twine(letters[label - numBatch]) + "'").str();
}

namespace {
/// One term as written: its letters, with '.' standing for `...`.
struct Term {
  SmallVector<char> chars;
  size_t begin = 0, end = 0;
  bool hasEllipsis() const { return llvm::is_contained(chars, '.'); }
  unsigned numLetters() const { return chars.size() - (hasEllipsis() ? 1 : 0); }
};
} // namespace

/// Splits `eq` into operand terms and the output term (absent without `->`).
static LogicalResult scan(StringRef eq, SmallVectorImpl<Term> &inputs,
                          std::optional<Term> &output, std::string &error) {
  auto fail = [&](const Twine &message) {
    error = message.str();
    return failure();
  };
  inputs.emplace_back();
  Term *cur = &inputs.back();
  for (size_t i = 0; i < eq.size(); ++i) {
    char c = eq[i];
    if (c == ' ')
      continue;
    if (llvm::isAlpha(c)) {
      cur->chars.push_back(c);
    } else if (c == '.') {
      if (!eq.substr(i).starts_with("..."))
        return fail("'.' at position " + Twine(i) + " is not part of '...'");
      if (cur->hasEllipsis())
        return fail("second '...' in one term at position " + Twine(i));
      cur->chars.push_back('.');
      i += 2;
    } else if (c == ',') {
      if (output)
        return fail("',' at position " + Twine(i) + " in the output term");
      cur->end = i;
      inputs.emplace_back();
      cur = &inputs.back();
      cur->begin = i + 1;
    } else if (c == '-') {
      if (i + 1 >= eq.size() || eq[i + 1] != '>')
        return fail("'-' at position " + Twine(i) + " is not part of '->'");
      if (output)
        return fail("second '->' at position " + Twine(i));
      cur->end = i;
      output.emplace();
      cur = &*output;
      cur->begin = i + 2;
      ++i;
    } else {
      return fail("invalid character '" + Twine(c) + "' at position " +
                  Twine(i) + " (labels are letters)");
    }
  }
  cur->end = eq.size();
  return success();
}

FailureOr<EinsumSpec> relax::parseEinsum(StringRef eq,
                                         ArrayRef<std::optional<int64_t>> ranks,
                                         std::string &error) {
  auto fail = [&](const Twine &message) -> FailureOr<EinsumSpec> {
    error = message.str();
    return failure();
  };
  SmallVector<Term> terms;
  std::optional<Term> out;
  if (failed(scan(eq, terms, out, error)))
    return failure();
  if (terms.size() != ranks.size())
    return fail(Twine(terms.size()) + " operand term" +
                (terms.size() == 1 ? "" : "s") + " for " + Twine(ranks.size()) +
                " operand" + (ranks.size() == 1 ? "" : "s"));

  EinsumSpec spec;
  SmallVector<int64_t> ellipsisRanks;
  for (auto [i, term] : llvm::enumerate(terms)) {
    int64_t letters = term.numLetters();
    int64_t rank = ranks[i] ? *ranks[i] : letters;
    StringRef text = eq.slice(term.begin, term.end).trim();
    if (!term.hasEllipsis() && rank != letters)
      return fail("term #" + Twine(i) + " '" + text + "' has " +
                  Twine(letters) + " labels but operand #" + Twine(i) +
                  " has rank " + Twine(rank));
    if (term.hasEllipsis() && rank < letters)
      return fail("term #" + Twine(i) + " '" + text + "' has " +
                  Twine(letters) + " labels but operand #" + Twine(i) +
                  " has rank " + Twine(rank));
    ellipsisRanks.push_back(rank - letters);
    spec.numBatch = std::max<unsigned>(spec.numBatch, rank - letters);
  }

  // Letters get labels in order of first appearance.
  auto labelOf = [&](char c) -> std::optional<unsigned> {
    auto it = llvm::find(spec.letters, c);
    if (it == spec.letters.end())
      return std::nullopt;
    return spec.numBatch + unsigned(it - spec.letters.begin());
  };
  SmallVector<unsigned> counts;
  for (auto [i, term] : llvm::enumerate(terms)) {
    SmallVector<unsigned, 4> &dims = spec.operands.emplace_back();
    for (char c : term.chars) {
      if (c == '.') {
        for (unsigned b = spec.numBatch - ellipsisRanks[i]; b < spec.numBatch;
             ++b)
          dims.push_back(b);
        continue;
      }
      if (!labelOf(c))
        spec.letters.push_back(c);
      dims.push_back(*labelOf(c));
    }
  }
  counts.assign(spec.numLabels(), 0);
  for (const auto &dims : spec.operands)
    for (unsigned label : dims)
      ++counts[label];

  if (out) {
    size_t pos = out->begin;
    for (char c : out->chars) {
      pos = eq.find(c == '.' ? '.' : c, pos);
      if (c == '.') {
        for (unsigned b = 0; b < spec.numBatch; ++b)
          spec.output.push_back(b);
        pos += 3;
        continue;
      }
      std::optional<unsigned> label = labelOf(c);
      if (!label)
        return fail("output label '" + Twine(c) + "' at position " +
                    Twine(pos) + " does not appear in the operand terms");
      if (llvm::is_contained(spec.output, *label))
        return fail("output label '" + Twine(c) + "' at position " +
                    Twine(pos) + " appears twice");
      spec.output.push_back(*label);
      ++pos;
    }
    if (spec.numBatch > 0 && !out->hasEllipsis())
      return fail("the output term has no '...' for the " +
                  Twine(spec.numBatch) + " ellipsis dims of the operands");
  } else {
    for (unsigned b = 0; b < spec.numBatch; ++b)
      spec.output.push_back(b);
    SmallVector<char> once;
    for (char c : spec.letters)
      if (counts[*labelOf(c)] == 1)
        once.push_back(c);
    llvm::sort(once);
    for (char c : once)
      spec.output.push_back(*labelOf(c));
  }
  for (unsigned label = 0; label < spec.numLabels(); ++label)
    if (!llvm::is_contained(spec.output, label))
      spec.reduced.push_back(label);
  return spec;
}

bool relax::einsumTermHasEllipsis(StringRef eq, unsigned index) {
  SmallVector<StringRef> terms;
  eq.split("->").first.split(terms, ',');
  return index < terms.size() && terms[index].contains("...");
}
