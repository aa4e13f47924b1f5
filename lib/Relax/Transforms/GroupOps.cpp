//===- GroupOps.cpp - --relax-group-ops -----------------------------------===//
//
// Partitions the calls of each relax.func body and relax.dataflow region into
// fusion groups. Such a block is a DAG whose nodes are its ops (in order,
// which is a topological order) and whose edges are def-use pairs. A call may
// join the group of its immediate post-dominator (the nearest op every path
// from it passes through) when the fusion rules allow every call in between;
// joining merges every node on those paths, so a group is always a convex set
// of calls with a single sink (plus values that leave through relax.output).
//
// A relax.call_tir_inplace may be a group's sink, never a member on the way
// to a later one: its result is its updated input's buffer, not a value a
// merged program could compute into a fresh buffer. Producers of its other
// inputs join it as they would join a relax.call_tir; the producer of an
// updated input never does, since that input must stay a real buffer for
// the merged call to update.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/StorageRoot.h"
#include "RelaxDialect/Relax/Transforms/Fusion.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXGROUPOPS
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

void relax::forEachFusionBlock(Operation *root,
                               function_ref<void(Block &)> fn) {
  root->walk([&](FuncOp func) {
    if (func.getBody().empty())
      return;
    fn(func.getBody().front());
    func.walk([&](DataflowOp dataflow) { fn(dataflow.getBody().front()); });
    // A loop body is a block of its own: its ops fuse with each other,
    // never with ops outside the loop.
    func.walk([&](WhileOp loop) { fn(*loop.bodyBlock()); });
  });
}

namespace {

/// One op of the block.
struct Node {
  Operation *op;
  OpPattern pattern;
  /// A relax.call_tir_inplace: it may only be a group's sink.
  bool inplace;
  /// Consumers in the block, with the kind of each edge; an op that uses
  /// several results of a node appears once. An edge into an input that a
  /// relax.call_tir_inplace updates is opaque: it never fuses.
  SmallVector<std::pair<unsigned, OpPattern>> consumers;
  // Post-dominator tree: the immediate post-dominator (or -1 when the node
  // reaches the end of the block on some path without passing through a
  // single op), the strongest kind on the way to it, and the tree depth.
  int ipdom = -1;
  OpPattern ipdomPattern = OpPattern::Elementwise;
  unsigned depth = 1;
  /// A call of a decode program (tir::isDecode), or an injective call that
  /// only rearranges decoded values (a transpose of a dequantized weight):
  /// it may join a contraction that reads its result, since recomputing an
  /// element per read is cheaper than storing it.
  bool decode = false;
};

/// Union-find over nodes; the root of a set is its group's sink and holds
/// the group's kind and size.
struct Group {
  unsigned parent;
  OpPattern pattern;
  unsigned numNodes = 1;
};

class Partitioner {
public:
  Partitioner(Block &body, unsigned maxGroupSize) : maxGroupSize(maxGroupSize) {
    buildGraph(body);
    buildPostDominatorTree();
  }

  /// Runs the fusion rules and returns, per node, the root of its group.
  SmallVector<unsigned> run();

  ArrayRef<Node> getNodes() const { return nodes; }
  /// The number of nodes in the group whose root is `root`.
  unsigned getGroupSize(unsigned root) const { return groups[root].numNodes; }

private:
  void buildGraph(Block &body);
  void buildPostDominatorTree();
  int leastCommonAncestor(int a, int b, OpPattern &pattern) const;

  unsigned find(unsigned n) {
    while (groups[n].parent != n)
      n = groups[n].parent = groups[groups[n].parent].parent;
    return n;
  }
  /// The nodes strictly between `src` and `sink` on every path, plus `sink`.
  /// Fails when some node on the way breaks `allowed(kind, isSink)`.
  FailureOr<SmallVector<unsigned>>
  collectPath(unsigned src, unsigned sink,
              function_ref<bool(OpPattern, bool)> allowed);
  void tryFuse(unsigned src, unsigned sink,
               function_ref<bool(OpPattern, bool)> allowed);
  bool readsUpdatedInput(const llvm::SmallDenseSet<unsigned> &roots) const;

  SmallVector<Node> nodes;
  /// The storage (StorageRoot.h: a view of it is updated too) each
  /// relax.call_tir_inplace of the block updates, with the call's position.
  SmallVector<std::pair<StorageRoot, unsigned>> updatedAt;
  /// Callee lookups of getStorageRoot (through relax.call).
  mutable SymbolTableCollection symbols;
  SmallVector<Group> groups;
  unsigned maxGroupSize;
};
} // namespace

/// A call's kind (relax.call_tir or relax.call_tir_inplace): its callee's
/// `op_pattern`. Anything else, and a call whose operand or result types a
/// merged program could not restate (unknown rank or dims), is opaque.
static OpPattern getNodePattern(Operation *op) {
  FlatSymbolRefAttr callee;
  if (auto call = dyn_cast<CallTIROp>(op))
    callee = call.getCalleeAttr();
  else if (auto call = dyn_cast<CallTIRInplaceOp>(op))
    callee = call.getCalleeAttr();
  else
    return OpPattern::Opaque;
  auto fullyKnown = [](Type type) {
    auto tensor = dyn_cast<RelaxTensorType>(type);
    return tensor && tensor.getShape().isFullyKnown();
  };
  if (!llvm::all_of(op->getOperandTypes(), fullyKnown) ||
      !llvm::all_of(op->getResultTypes(), fullyKnown))
    return OpPattern::Opaque;
  return tir::getOpPattern(
      SymbolTable::lookupNearestSymbolFrom<tir::PrimFuncOp>(op, callee));
}

/// Whether `call` updates its operand #`operand` in place.
static bool isUpdatedInput(CallTIRInplaceOp call, unsigned operand) {
  return llvm::is_contained(call.getInplaceIndices(), int64_t(operand));
}

void Partitioner::buildGraph(Block &body) {
  DenseMap<Operation *, unsigned> index;
  for (Operation &op : body.without_terminator()) {
    if (auto inplace = dyn_cast<CallTIRInplaceOp>(op))
      for (unsigned i = 0; i < inplace.getNumResults(); ++i)
        if (Value input = inplace.getAliasedInput(i))
          updatedAt.push_back({getStorageRoot(input, &symbols),
                               static_cast<unsigned>(nodes.size())});
    index[&op] = nodes.size();
    nodes.push_back(
        {&op, getNodePattern(&op), isa<CallTIRInplaceOp>(op), {}});
    if (auto call = dyn_cast<CallTIROp>(op)) {
      Node &node = nodes.back();
      auto fromDecode = [&](Value v) {
        auto it = index.find(v.getDefiningOp());
        return it != index.end() && nodes[it->second].decode;
      };
      node.decode =
          node.pattern != OpPattern::Opaque &&
          (tir::isDecode(SymbolTable::lookupNearestSymbolFrom<tir::PrimFuncOp>(
               &op, call.getCalleeAttr())) ||
           (node.pattern <= OpPattern::Injective && !call.getInputs().empty() &&
            llvm::all_of(call.getInputs(), fromDecode)));
    }
  }
  for (auto [i, node] : llvm::enumerate(nodes)) {
    // A use inside a nested region (a dataflow region reading a value of
    // the function body) is a use by the op that holds the region.
    llvm::SmallDenseMap<unsigned, OpPattern> edges;
    for (OpOperand &use : node.op->getUses()) {
      Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      auto it = index.find(user);
      if (it == index.end())
        continue; // the terminator: the value leaves the block
      const Node &consumer = nodes[it->second];
      // A broadcast reading an operand of its own result shape reads it
      // elementwise (a bias add's activation input).
      OpPattern edge = consumer.pattern;
      if (edge == OpPattern::Broadcast && user == use.getOwner() &&
          user->getNumResults() == 1 &&
          use.get().getType() == user->getResult(0).getType())
        edge = OpPattern::Elementwise;
      if (auto inplace = dyn_cast<CallTIRInplaceOp>(use.getOwner()))
        if (isUpdatedInput(inplace, use.getOperandNumber()))
          edge = OpPattern::Opaque;
      auto [entry, inserted] = edges.try_emplace(it->second, edge);
      if (!inserted)
        entry->second = std::max(entry->second, edge);
    }
    for (auto [consumer, edge] : edges)
      node.consumers.push_back({consumer, edge});
    llvm::sort(node.consumers);
  }
  groups.reserve(nodes.size());
  for (auto [i, node] : llvm::enumerate(nodes))
    groups.push_back({unsigned(i), node.pattern});
}

/// Walks `a` and `b` up the (partial) tree to their common ancestor,
/// folding the kinds of the edges climbed into `pattern`; -1 when none.
int Partitioner::leastCommonAncestor(int a, int b, OpPattern &pattern) const {
  while (a != b) {
    if (a < 0 || b < 0)
      return -1;
    if (nodes[a].depth < nodes[b].depth) {
      pattern = std::max(pattern, nodes[b].ipdomPattern);
      b = nodes[b].ipdom;
    } else if (nodes[b].depth < nodes[a].depth) {
      pattern = std::max(pattern, nodes[a].ipdomPattern);
      a = nodes[a].ipdom;
    } else {
      pattern =
          std::max({pattern, nodes[a].ipdomPattern, nodes[b].ipdomPattern});
      a = nodes[a].ipdom;
      b = nodes[b].ipdom;
    }
  }
  return a;
}

/// Consumers come later in the region, so visiting nodes backwards sees
/// every consumer's tree position first.
void Partitioner::buildPostDominatorTree() {
  for (int i = nodes.size() - 1; i >= 0; --i) {
    Node &node = nodes[i];
    if (node.consumers.empty())
      continue;
    OpPattern pattern = node.consumers.front().second;
    int ancestor = node.consumers.front().first;
    for (auto [consumer, edge] : llvm::drop_begin(node.consumers)) {
      pattern = std::max(pattern, edge);
      ancestor = leastCommonAncestor(ancestor, consumer, pattern);
    }
    node.ipdom = ancestor;
    node.ipdomPattern = pattern;
    node.depth = ancestor < 0 ? 1 : nodes[ancestor].depth + 1;
  }
}

FailureOr<SmallVector<unsigned>>
Partitioner::collectPath(unsigned src, unsigned sink,
                         function_ref<bool(OpPattern, bool)> allowed) {
  SmallVector<unsigned> path, worklist;
  llvm::DenseSet<unsigned> visited;
  // An opaque edge (into an updated input) never fuses, whatever the
  // consumer's kind.
  auto push = [&](unsigned from) {
    for (auto [consumer, edge] : nodes[from].consumers) {
      if (edge == OpPattern::Opaque)
        return false;
      worklist.push_back(consumer);
    }
    return true;
  };
  if (!push(src))
    return failure();
  while (!worklist.empty()) {
    unsigned n = worklist.pop_back_val();
    if (!visited.insert(n).second)
      continue;
    bool isSink = n == sink;
    // An in-place call is a sink only: a later group cannot compute its
    // result, which is its input's buffer.
    if (!allowed(groups[find(n)].pattern, isSink) ||
        (!isSink && nodes[n].inplace))
      return failure();
    path.push_back(n);
    // Every path from src reaches sink (it post-dominates src), so the walk
    // stops there.
    if (!isSink && !push(n))
      return failure();
  }
  return path;
}

void Partitioner::tryFuse(unsigned src, unsigned sink,
                          function_ref<bool(OpPattern, bool)> allowed) {
  FailureOr<SmallVector<unsigned>> path = collectPath(src, sink, allowed);
  if (failed(path))
    return;
  llvm::SmallDenseSet<unsigned> roots;
  roots.insert(find(src));
  for (unsigned n : *path)
    roots.insert(find(n));
  unsigned size = 0;
  for (unsigned root : roots)
    size += groups[root].numNodes;
  if (size > maxGroupSize || readsUpdatedInput(roots))
    return;
  // The sink's group absorbs the others. Its kind stays the sink's unless
  // an anchor (a reduction or contraction) joins it.
  unsigned target = find(sink);
  for (unsigned root : roots) {
    if (root == target)
      continue;
    groups[root].parent = target;
    groups[target].numNodes += groups[root].numNodes;
    if (groups[root].pattern >= OpPattern::Reduction)
      groups[target].pattern =
          std::max(groups[target].pattern, groups[root].pattern);
  }
}

/// Whether merging the groups `roots` would move a read of a value past a
/// relax.call_tir_inplace that updates it: the merged call runs where the
/// last member is (FuseTIR), so a member before such a call would read the
/// new contents. A member that reads the value the group's own last
/// member (an in-place sink) updates is refused too: the read and the
/// write would share one program, correct only as long as every later
/// rewrite of it (inlining, moving a nest into another's loops) sees the
/// dependence through the buffer. No fusion the KV-cache pattern needs is
/// lost: the rotary reads the new keys, not the cache.
bool Partitioner::readsUpdatedInput(
    const llvm::SmallDenseSet<unsigned> &roots) const {
  if (updatedAt.empty())
    return false;
  SmallVector<unsigned> members;
  for (unsigned i = 0; i < nodes.size(); ++i) {
    unsigned n = i;
    while (groups[n].parent != n)
      n = groups[n].parent;
    if (roots.contains(n))
      members.push_back(i);
  }
  unsigned last = members.back();
  for (unsigned m : members)
    for (Value operand : nodes[m].op->getOperands()) {
      StorageRoot read = getStorageRoot(operand, &symbols);
      for (const auto &[updated, at] : updatedAt)
        if (m < at && at <= last && read.overlaps(updated))
          return true;
    }
  return false;
}

SmallVector<unsigned> Partitioner::run() {
  // Phase 0 attaches epilogues to contractions and producers to their
  // consumers; phase 1 joins injective chains, once phase 0 has settled
  // which elementwise ops went where.
  for (unsigned phase = 0; phase < 2; ++phase) {
    for (unsigned i = 0; i < nodes.size(); ++i) {
      const Node &node = nodes[i];
      // The node's own kind, or its group's when it is the group's sink.
      OpPattern kind = groups[i].pattern;
      if (kind == OpPattern::Opaque || node.inplace || node.ipdom < 0)
        continue;
      unsigned sink = node.ipdom;
      if (find(i) == find(sink))
        continue;
      if (kind == OpPattern::OutEwiseFusable) {
        if (phase != 0 || node.ipdomPattern != OpPattern::Elementwise)
          continue;
        tryFuse(i, sink,
                [](OpPattern p, bool) { return p <= OpPattern::Broadcast; });
      } else if (node.decode && phase == 0 &&
                 (nodes[sink].pattern == OpPattern::OutEwiseFusable ||
                  nodes[sink].decode)) {
        // A dequantized weight (and a transpose of it) goes into the
        // product that reads it: the merged program decodes each element
        // where it is read.
        tryFuse(i, sink, [](OpPattern p, bool isSink) {
          return isSink ? p != OpPattern::Opaque : p <= OpPattern::Injective;
        });
      } else if (kind <= OpPattern::Broadcast) {
        // Not into a contraction's operand: it reads each element many
        // times. (A group whose sink took a contraction may still take
        // producers of its epilogue's other operands.)
        if (node.ipdomPattern > OpPattern::Injective &&
            node.ipdomPattern != OpPattern::Reduction)
          continue;
        tryFuse(i, sink, [](OpPattern p, bool isSink) {
          return isSink ? p != OpPattern::Opaque : p <= OpPattern::Injective;
        });
      } else if (kind == OpPattern::Injective) {
        if (phase != 1)
          continue;
        tryFuse(i, sink,
                [](OpPattern p, bool) { return p <= OpPattern::Injective; });
      }
      // Reductions end their group: their consumers read whole rows.
    }
  }
  SmallVector<unsigned> roots;
  for (unsigned i = 0; i < nodes.size(); ++i)
    roots.push_back(find(i));
  return roots;
}

namespace {
struct RelaxGroupOpsPass
    : public relax::impl::RelaxGroupOpsBase<RelaxGroupOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    int64_t nextId = 0;
    forEachFusionBlock(getOperation(), [&](Block &body) {
      Partitioner partitioner(body, maxGroupSize);
      SmallVector<unsigned> roots = partitioner.run();
      DenseMap<unsigned, int64_t> ids;
      for (auto [i, node] : llvm::enumerate(partitioner.getNodes())) {
        if (partitioner.getGroupSize(roots[i]) < 2)
          continue;
        auto [it, inserted] = ids.try_emplace(roots[i], nextId);
        nextId += inserted;
        node.op->setAttr(kFusionGroupAttrName,
                         builder.getI64IntegerAttr(it->second));
      }
    });
  }
};
} // namespace
