#!/usr/bin/env python3
"""Exports the small test models under test/models with both torch.onnx
exporters and saves onnxruntime's outputs as references.

Run by hand (never by the tests or CI) in a virtual environment that has
torch, transformers, onnx, onnxscript, onnxruntime and numpy, e.g.

  python3 -m venv /work/venv-gen
  /work/venv-gen/bin/pip install torch transformers onnxruntime onnx onnxscript numpy
  /work/venv-gen/bin/python scripts/make-onnx-models.py            # all models
  /work/venv-gen/bin/python scripts/make-onnx-models.py --only bert cnn
  scripts/gen-model-tests.py                                       # then the lit tests

What it writes, for every model M and exporter E (torchscript: torch.onnx.export
with dynamo=False at opset 17; dynamo: the default exporter, which writes opset
18 or newer):

  test/models/M-E/model.onnx             weights inside the file (no external data)
  test/models/M-E/meta.json              graph inputs/outputs (names, dim_params,
                                         dtypes), opset, op types, per-size dims
  test/models/M-E/<size>/input_<i>.npy   inputs in graph input order
  test/models/M-E/<size>/output_<i>.npy  onnxruntime (CPU EP) outputs, in graph
                                         output order
  test/models/README.md                  what was generated, and every export
                                         that failed (with its error)
  test/models/status.json                the same, read back by --only runs

The models are built from transformers configs with random weights (fixed
seeds), tiny (hidden 32, 2 layers, vocab 128):

  bert           BertModel: input_ids, attention_mask, token_type_ids
                 [batch, sequence] -> last_hidden_state, pooler_output
  llama-prefill  LlamaForCausalLM, grouped-query attention (4 heads, 2 kv heads),
                 rotary: input_ids, attention_mask -> logits, present.N.key/value
  llama-decode   the same with past_key_values.N.key/value
                 [batch, kv_heads, past_sequence, head_dim] as inputs; the
                 attention mask covers past and new tokens
  gpt2-prefill   GPT2LMHeadModel, as llama-prefill
  gpt2-decode    GPT2LMHeadModel, as llama-decode
  cnn            torch.nn conv/batchnorm/relu/maxpool/avgpool/linear over
                 x [batch, 3, height, width]
  rnn            torch.nn LSTM (bidirectional, batch_first) + GRU + Linear over
                 x [batch, sequence, 6] -> logits, the GRU's output

Sizes (each saved under its own directory):
  bert, *-prefill, rnn  b1-s1, b2-s5, b3-s17  (batch, sequence)
  *-decode         b1-p1, b2-p7, b3-p63     (batch, past_sequence; sequence 1)
  cnn              b1-16x16, b2-20x24, b3-32x32

The wrapper modules take and return flat tensors, so every graph input and
output is a plain tensor. dim_params come from dynamic_axes (torchscript) and
from torch.export.Dim names (dynamo; derived dims are written as the exporter
writes them, e.g. `past_sequence + sequence`). The decode attention mask's
length is `past_sequence + sequence` for torchscript; torch.export cannot
express a sum of two Dims, so there it is a Dim of its own, `total_sequence`.
The dynamo exporter's per-node debug metadata (FX node, stack, module path;
two thirds of the file) is removed to keep the files small.

Each export is also checked against the eager torch model (max abs difference
recorded in meta.json as torch_max_abs_diff); a large difference is reported.
"""

import argparse
import json
import os
import shutil
import sys
import traceback
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Tiny transformer dimensions shared by the configs.
VOCAB = 128
HIDDEN = 32
LAYERS = 2
MAX_POS = 128
# Larger than transformers' default 0.02 so attention scores are not all
# near zero and the references tell a wrong mask or rotary apart.
INIT_RANGE = 0.2

EXPORTERS = ("torchscript", "dynamo")
# Names of the dynamo exporter's Dims for dim expressions of the spec.
DYNAMO_DIM_NAMES = {"past_sequence + sequence": "total_sequence"}

TOKEN_SIZES = [("b1-s1", dict(batch=1, sequence=1)),
               ("b2-s5", dict(batch=2, sequence=5)),
               ("b3-s17", dict(batch=3, sequence=17))]
DECODE_SIZES = [("b1-p1", dict(batch=1, sequence=1, past_sequence=1)),
                ("b2-p7", dict(batch=2, sequence=1, past_sequence=7)),
                ("b3-p63", dict(batch=3, sequence=1, past_sequence=63))]
CNN_SIZES = [("b1-16x16", dict(batch=1, height=16, width=16)),
             ("b2-20x24", dict(batch=2, height=20, width=24)),
             ("b3-32x32", dict(batch=3, height=32, width=32))]
# Example sizes for the export itself: not 0 or 1 (torch.export specializes
# those) and distinct, so no two dims are taken as equal.
EXPORT_TOKEN = dict(batch=2, sequence=5)
EXPORT_DECODE = dict(batch=2, sequence=3, past_sequence=7)
EXPORT_CNN = dict(batch=2, height=20, width=24)
# U-Nets: the padded one takes any size (odd ones too); the plain one only
# sizes that two 2x2 poolings leave whole (multiples of 4).
UNET_SIZES = [("b1-16x16", dict(batch=1, height=16, width=16)),
              ("b2-17x23", dict(batch=2, height=17, width=23)),
              ("b1-9x12", dict(batch=1, height=9, width=12))]
UNET_EVEN_SIZES = [("b1-16x16", dict(batch=1, height=16, width=16)),
                   ("b2-20x24", dict(batch=2, height=20, width=24))]


def log(*args):
    print(*args, flush=True)


# --- Model specs -------------------------------------------------------------

class Spec:
    """A model to export: the torch module, its graph inputs as
    (name, dims, kind) with dims symbolic strings or ints, output names and
    their dynamic dims, and the sizes to run."""

    def __init__(self, name, description, module, inputs, outputs, sizes,
                 export_size):
        self.name = name
        self.description = description
        self.module = module
        self.inputs = inputs      # [(name, dims, kind)]
        self.outputs = outputs    # [(name, dims)]
        self.sizes = sizes
        self.export_size = export_size


def eval_dim(d, size):
    if isinstance(d, int):
        return d
    return int(eval(d, {}, dict(size)))


def make_input(name, dims, kind, size, rng):
    shape = [eval_dim(d, size) for d in dims]
    if kind == "ids":
        return rng.integers(0, VOCAB, size=shape, dtype=np.int64)
    if kind == "mask":
        return np.ones(shape, dtype=np.int64)
    if kind == "type_ids":
        return rng.integers(0, 2, size=shape, dtype=np.int64)
    if kind == "float":
        return rng.standard_normal(shape).astype(np.float32)
    raise ValueError(kind)


def flat_cache(cache):
    """[(key, value)] per layer of a transformers cache (any version)."""
    if cache is None:
        return []
    if hasattr(cache, "layers"):
        return [(l.keys, l.values) for l in cache.layers]
    if hasattr(cache, "key_cache"):
        return list(zip(cache.key_cache, cache.value_cache))
    if hasattr(cache, "to_legacy_cache"):
        return [(k, v) for k, v in cache.to_legacy_cache()]
    return [(k, v) for k, v in cache]


def build_bert():
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(vocab_size=VOCAB, hidden_size=HIDDEN,
                        num_hidden_layers=LAYERS, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=MAX_POS,
                        type_vocab_size=2, initializer_range=INIT_RANGE,
                        hidden_dropout_prob=0.0,
                        attention_probs_dropout_prob=0.0)
    model = BertModel(config).eval()

    class Wrapper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.model(input_ids=input_ids,
                             attention_mask=attention_mask,
                             token_type_ids=token_type_ids)
            return out.last_hidden_state, out.pooler_output

    tok = ["batch", "sequence"]
    return Spec(
        "bert", "BertModel encoder (2 layers, hidden 32, 2 heads, vocab 128)",
        Wrapper().eval(),
        [("input_ids", tok, "ids"), ("attention_mask", tok, "mask"),
         ("token_type_ids", tok, "type_ids")],
        [("last_hidden_state", ["batch", "sequence", HIDDEN]),
         ("pooler_output", ["batch", HIDDEN])],
        TOKEN_SIZES, EXPORT_TOKEN)


def causal_lm_spec(name, description, model, kv_heads, head_dim, decode):
    import torch
    from transformers import DynamicCache

    layers = LAYERS

    class Wrapper(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, *past):
            cache = None
            if past:
                cache = DynamicCache()
                for i in range(layers):
                    cache.update(past[2 * i], past[2 * i + 1], i)
            out = self.model(input_ids=input_ids,
                             attention_mask=attention_mask,
                             past_key_values=cache, use_cache=True)
            flat = [out.logits]
            for k, v in flat_cache(out.past_key_values):
                flat += [k, v]
            return tuple(flat)

    tok = ["batch", "sequence"]
    total = "past_sequence + sequence" if decode else "sequence"
    inputs = [("input_ids", tok, "ids"),
              ("attention_mask", ["batch", total], "mask")]
    if decode:
        for i in range(layers):
            for kv in ("key", "value"):
                inputs.append(("past_key_values.%d.%s" % (i, kv),
                               ["batch", kv_heads, "past_sequence", head_dim],
                               "float"))
    outputs = [("logits", ["batch", "sequence", VOCAB])]
    for i in range(layers):
        for kv in ("key", "value"):
            outputs.append(("present.%d.%s" % (i, kv),
                            ["batch", kv_heads, total, head_dim]))
    return Spec(name, description, Wrapper().eval(), inputs, outputs,
                DECODE_SIZES if decode else TOKEN_SIZES,
                EXPORT_DECODE if decode else EXPORT_TOKEN)


def build_llama(decode):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    config = LlamaConfig(vocab_size=VOCAB, hidden_size=HIDDEN,
                         intermediate_size=64, num_hidden_layers=LAYERS,
                         num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=MAX_POS,
                         initializer_range=INIT_RANGE, tie_word_embeddings=False)
    model = LlamaForCausalLM(config).eval()
    kind = "decode" if decode else "prefill"
    return causal_lm_spec(
        "llama-" + kind,
        "LlamaForCausalLM %s (2 layers, hidden 32, 4 heads, 2 kv heads "
        "(grouped-query), rotary, vocab 128)" % kind,
        model, kv_heads=2, head_dim=HIDDEN // 4, decode=decode)


def build_gpt2(decode):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(2)
    config = GPT2Config(vocab_size=VOCAB, n_embd=HIDDEN, n_layer=LAYERS,
                        n_head=2, n_positions=MAX_POS,
                        initializer_range=INIT_RANGE, resid_pdrop=0.0,
                        embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=0,
                        eos_token_id=0)
    model = GPT2LMHeadModel(config).eval()
    kind = "decode" if decode else "prefill"
    return causal_lm_spec(
        "gpt2-" + kind,
        "GPT2LMHeadModel %s (2 layers, hidden 32, 2 heads, vocab 128)" % kind,
        model, kv_heads=2, head_dim=HIDDEN // 2, decode=decode)


def build_cnn():
    import torch
    from torch import nn

    torch.manual_seed(3)
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    # Non-trivial batch-norm statistics.
    with torch.no_grad():
        for m in model:
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    return Spec(
        "cnn", "torch.nn CNN: conv/batchnorm/relu/maxpool/conv/batchnorm/relu/"
        "adaptive avgpool/flatten/linear",
        model.eval(),
        [("x", ["batch", 3, "height", "width"], "float")],
        [("y", ["batch", 10])],
        CNN_SIZES, EXPORT_CNN)


def build_unet(pad_to_skip):
    import torch
    from torch import nn
    import torch.nn.functional as F

    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1),
                             nn.BatchNorm2d(cout), nn.ReLU())

    class UNet(nn.Module):
        """Two 2x2 poolings down, back up by nearest upsampling (level 2)
        and a stride-2 transposed conv (level 1), each concatenated with
        the skip map of its level; a lateral 1x1 conv added to the upsampled
        map (FPN style) at level 2. With pad_to_skip the upsampled map is
        padded to the skip map's size first (as the widely copied
        milesial/Pytorch-UNet does), so odd sizes run; without, the skip
        concat only fits sizes the poolings leave whole."""

        def __init__(self):
            super().__init__()
            self.enc1, self.enc2, self.mid = block(3, 4), block(4, 8), \
                block(8, 8)
            self.lateral = nn.Conv2d(8, 8, 1)
            self.dec2 = block(16, 8)
            self.up1 = nn.ConvTranspose2d(8, 4, 2, stride=2)
            self.dec1 = block(8, 4)
            self.head = nn.Conv2d(4, 2, 1)

        def match(self, x, skip):
            if not pad_to_skip:
                return x
            dy = skip.shape[2] - x.shape[2]
            dx = skip.shape[3] - x.shape[3]
            return F.pad(x, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])

        def forward(self, x):
            s1 = self.enc1(x)
            s2 = self.enc2(F.max_pool2d(s1, 2))
            m = self.mid(F.max_pool2d(s2, 2))
            u2 = self.match(F.interpolate(m, scale_factor=2.0,
                                          mode="nearest"), s2)
            u2 = u2 + self.match(
                F.interpolate(self.lateral(m), scale_factor=2.0,
                              mode="nearest"), s2)
            d2 = self.dec2(torch.cat([u2, s2], dim=1))
            u1 = self.match(self.up1(d2), s1)
            d1 = self.dec1(torch.cat([s1, u1], dim=1))
            return self.head(d1)

    torch.manual_seed(5)
    model = UNet()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    name = "unet" if pad_to_skip else "unet-even"
    return Spec(
        name, "U-Net: conv blocks, 2x2 max pooling twice, nearest upsampling "
        "and a stride-2 ConvTranspose back up, skip concats, an FPN-style "
        "lateral add" + ("; upsampled maps padded to the skip map's size "
                         "(odd sizes run)" if pad_to_skip else
                         "; no padding (height and width multiples of 4)"),
        model.eval(),
        [("x", ["batch", 3, "height", "width"], "float")],
        [("y", ["batch", 2, "height", "width"])],
        UNET_SIZES if pad_to_skip else UNET_EVEN_SIZES, EXPORT_CNN)


def build_rnn():
    import torch
    from torch import nn

    class RNNClassifier(nn.Module):
        """Bidirectional batch-first LSTM, a GRU over its output, a linear
        classifier over the GRU's last hidden state."""

        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(6, 8, batch_first=True, bidirectional=True)
            self.gru = nn.GRU(16, 8, batch_first=True)
            self.head = nn.Linear(8, 4)

        def forward(self, x):
            y, _ = self.lstm(x)
            z, h = self.gru(y)
            return self.head(h[-1]), z

    torch.manual_seed(5)
    return Spec(
        "rnn", "torch.nn LSTM (bidirectional, batch_first) + GRU + Linear "
        "over x [batch, sequence, 6]",
        RNNClassifier().eval(),
        [("x", ["batch", "sequence", 6], "float")],
        [("logits", ["batch", 4]), ("gru_y", ["batch", "sequence", 8])],
        TOKEN_SIZES, EXPORT_TOKEN)


BUILDERS = {
    "bert": build_bert,
    "llama-prefill": lambda: build_llama(False),
    "llama-decode": lambda: build_llama(True),
    "gpt2-prefill": lambda: build_gpt2(False),
    "gpt2-decode": lambda: build_gpt2(True),
    "cnn": build_cnn,
    "unet": lambda: build_unet(True),
    "unet-even": lambda: build_unet(False),
    "rnn": build_rnn,
}


# --- Export ------------------------------------------------------------------

def symbolic_names(spec):
    names = []
    for _, dims, _ in spec.inputs:
        for d in dims:
            if isinstance(d, str) and d.isidentifier() and d not in names:
                names.append(d)
    return names


def export_torchscript(spec, args, path):
    import torch

    dynamic_axes = {}
    for name, dims in [(n, d) for n, d, _ in spec.inputs] + spec.outputs:
        axes = {i: d for i, d in enumerate(dims) if isinstance(d, str)}
        if axes:
            dynamic_axes[name] = axes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            spec.module, args, path, dynamo=False, opset_version=17,
            input_names=[n for n, _, _ in spec.inputs],
            output_names=[n for n, _ in spec.outputs],
            dynamic_axes=dynamic_axes, do_constant_folding=True)


def export_dynamo(spec, args, path):
    import torch
    from torch.export import Dim

    dims = {n: Dim(n, min=1, max=1024) for n in symbolic_names(spec)}
    shapes = []
    for _, ds, _ in spec.inputs:
        entry = {}
        for i, d in enumerate(ds):
            if isinstance(d, str):
                # torch.export derives dims only as a linear function of one
                # Dim; the attention mask's past_sequence + sequence becomes
                # a dim of its own (its relation to the others is not
                # visible in the graph). Dim.AUTO would name it s<N>.
                if d not in dims:
                    dims[d] = Dim(DYNAMO_DIM_NAMES[d], min=1, max=1024)
                entry[i] = dims[d]
        shapes.append(entry)
    # The causal-LM wrappers take the past tensors as *past.
    shapes = tuple(shapes[:2]) + (tuple(shapes[2:]),) if len(shapes) > 3 \
        else tuple(shapes)
    kwargs = dict(dynamo=True, input_names=[n for n, _, _ in spec.inputs],
                  output_names=[n for n, _ in spec.outputs],
                  dynamic_shapes=shapes, external_data=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.onnx.export(spec.module, args, **kwargs)
        program.save(path, external_data=False)


def torch_outputs(spec, arrays):
    import torch
    with torch.no_grad():
        out = spec.module(*[torch.from_numpy(a) for a in arrays])
    if not isinstance(out, (tuple, list)):
        out = (out,)
    return [o.detach().numpy() for o in out]


def strip_node_metadata(model):
    def strip(nodes):
        for n in nodes:
            del n.metadata_props[:]
            n.doc_string = ""
            for a in n.attribute:
                if a.HasField("g"):
                    strip(a.g.node)
                for g in a.graphs:
                    strip(g.node)
    strip(model.graph.node)
    for f in model.functions:
        strip(f.node)


def graph_info(model):
    import onnx

    def dims_of(vi):
        t = vi.type.tensor_type
        if not t.HasField("shape"):
            return None
        return [d.dim_param if d.HasField("dim_param") else
                (d.dim_value if d.HasField("dim_value") else "?")
                for d in t.shape.dim]

    def dtype_of(vi):
        return onnx.TensorProto.DataType.Name(vi.type.tensor_type.elem_type)

    inits = {i.name for i in model.graph.initializer}
    inputs = [dict(name=vi.name, dims=dims_of(vi), dtype=dtype_of(vi))
              for vi in model.graph.input if vi.name not in inits]
    outputs = [dict(name=vi.name, dims=dims_of(vi), dtype=dtype_of(vi))
               for vi in model.graph.output]
    opsets = {(o.domain or "ai.onnx"): o.version for o in model.opset_import}
    op_types = set()

    def walk(graph):
        for n in graph.node:
            op_types.add(n.op_type if n.domain in ("", "ai.onnx")
                         else "%s:%s" % (n.domain, n.op_type))
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
                for g in a.graphs:
                    walk(g)
    walk(model.graph)
    for f in model.functions:
        walk(f)
    return inputs, outputs, opsets, sorted(op_types)


def run_model(spec, exporter, outdir):
    import onnx
    import onnxruntime as ort
    import torch

    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    path = os.path.join(outdir, "model.onnx")
    rng = np.random.default_rng(100)
    export_args = tuple(
        torch.from_numpy(make_input(n, d, k, spec.export_size, rng))
        for n, d, k in spec.inputs)
    if exporter == "torchscript":
        export_torchscript(spec, export_args, path)
    else:
        export_dynamo(spec, export_args, path)

    model = onnx.load(path)
    if exporter == "dynamo":
        # The dynamo exporter annotates every node with its FX node, stack
        # and module path (two thirds of the file); debug data only.
        strip_node_metadata(model)
        onnx.save(model, path)
    # Everything inside the one file.
    if any(t.data_location == onnx.TensorProto.EXTERNAL
           for t in model.graph.initializer):
        onnx.save(model, path, save_as_external_data=False)
    for f in os.listdir(outdir):
        if f != "model.onnx":
            os.remove(os.path.join(outdir, f))
    onnx.checker.check_model(model)
    inputs, outputs, opsets, op_types = graph_info(model)

    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    graph_inputs = [i.name for i in session.get_inputs()]
    spec_inputs = {n: (d, k) for n, d, k in spec.inputs}
    missing = [n for n in graph_inputs if n not in spec_inputs]
    if missing:
        raise RuntimeError("graph inputs %s not in the spec" % missing)
    dropped = [n for n in spec_inputs if n not in graph_inputs]

    sizes = {}
    max_diff = 0.0
    for s, (size_name, size) in enumerate(spec.sizes):
        rng = np.random.default_rng(1000 + s)
        arrays = {n: make_input(n, d, k, size, rng)
                  for n, (d, k) in spec_inputs.items()}
        feed = {n: arrays[n] for n in graph_inputs}
        results = session.run(None, feed)
        reference = torch_outputs(spec, [arrays[n] for n, _, _ in spec.inputs])
        for r, t in zip(results, reference):
            if r.shape != t.shape:
                raise RuntimeError("%s: onnxruntime shape %s, torch %s" %
                                   (size_name, r.shape, t.shape))
            max_diff = max(max_diff, float(np.max(np.abs(r - t))))
        d = os.path.join(outdir, size_name)
        os.makedirs(d)
        for i, n in enumerate(graph_inputs):
            np.save(os.path.join(d, "input_%d.npy" % i), feed[n])
        for i, r in enumerate(results):
            np.save(os.path.join(d, "output_%d.npy" % i), r)
        sizes[size_name] = dict(
            dims=size,
            inputs=[list(feed[n].shape) for n in graph_inputs],
            outputs=[list(r.shape) for r in results])

    meta = dict(
        model=spec.name, exporter=exporter, description=spec.description,
        exporter_detail=("torch.onnx.export(dynamo=False, opset_version=17)"
                         if exporter == "torchscript" else
                         "torch.onnx.export(dynamo=True), default opset"),
        torch=torch.__version__, onnxruntime=ort.__version__,
        transformers=transformers_version(),
        opset=opsets.get("ai.onnx"), opsets=opsets,
        inputs=inputs, outputs=outputs, dropped_inputs=dropped,
        op_types=op_types, sizes=sizes, torch_max_abs_diff=max_diff)
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    return meta


def transformers_version():
    try:
        import transformers
        return transformers.__version__
    except ImportError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "test", "models"))
    parser.add_argument("--only", nargs="*", choices=sorted(BUILDERS),
                        help="models to (re)generate (default: all)")
    parser.add_argument("--exporter", nargs="*", choices=EXPORTERS,
                        default=list(EXPORTERS))
    args = parser.parse_args()
    names = args.only or list(BUILDERS)
    os.makedirs(args.out, exist_ok=True)
    status_path = os.path.join(args.out, "status.json")
    status = {}
    if os.path.exists(status_path):
        with open(status_path) as f:
            status = json.load(f)

    for name in names:
        for exporter in args.exporter:
            key = "%s-%s" % (name, exporter)
            outdir = os.path.join(args.out, key)
            log("== %s" % key)
            try:
                spec = BUILDERS[name]()
                meta = run_model(spec, exporter, outdir)
                note = ""
                if meta["torch_max_abs_diff"] > 1e-3:
                    note = ("onnxruntime differs from torch by %.3g" %
                            meta["torch_max_abs_diff"])
                    log("   WARNING: " + note)
                status[key] = dict(ok=True, opset=meta["opset"], note=note,
                                   dropped_inputs=meta["dropped_inputs"])
                log("   ok: opset %s, %d op types, torch diff %.2g%s" % (
                    meta["opset"], len(meta["op_types"]),
                    meta["torch_max_abs_diff"],
                    (", dropped inputs %s" % meta["dropped_inputs"])
                    if meta["dropped_inputs"] else ""))
            except Exception as e:  # Recorded, not dropped silently.
                shutil.rmtree(outdir, ignore_errors=True)
                first = (str(e).strip().splitlines() or [repr(e)])[0]
                status[key] = dict(ok=False, error="%s: %s" % (
                    type(e).__name__, first[:500]))
                log("   EXPORT FAILED: %s" % status[key]["error"])
                traceback.print_exc(limit=3)

    with open(status_path, "w") as f:
        json.dump(status, f, indent=1, sort_keys=True)
        f.write("\n")
    write_readme(args.out, status)
    failed = [k for k, v in status.items() if not v["ok"]]
    log("generated %d, failed %d%s" % (
        len(status) - len(failed), len(failed),
        (": " + ", ".join(sorted(failed))) if failed else ""))


def write_readme(out, status):
    lines = [
        "# Test models",
        "",
        "Generated by `scripts/make-onnx-models.py` (run by hand with torch,",
        "transformers, onnxscript and onnxruntime; see its docstring). Do not",
        "edit: regenerate. The lit tests that import and run them are",
        "`test/lit/Import/models/*.test`, written by `scripts/gen-model-tests.py`.",
        "",
        "Each `<model>-<exporter>/` holds `model.onnx`, `meta.json` and one",
        "directory per size with `input_<i>.npy` (graph input order) and",
        "`output_<i>.npy` (onnxruntime CPU outputs, graph output order).",
        "",
        "## Exports",
        "",
        "| model | opset | status |",
        "|---|---|---|",
    ]
    for key in sorted(status):
        v = status[key]
        if v["ok"]:
            text = "exported"
            if v.get("dropped_inputs"):
                text += "; the exporter dropped unused inputs %s" % ", ".join(
                    v["dropped_inputs"])
            if v.get("note"):
                text += "; " + v["note"]
            lines.append("| %s | %s | %s |" % (key, v["opset"], text))
        else:
            lines.append("| %s | - | export failed: `%s` |" % (
                key, v["error"].replace("|", "\\|")))
    lines.append("")
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
