"""Models of the side-by-side benchmark against onnxruntime (bench/peers).

Each model is written here as an ONNX graph with seeded random weights
(initializers), so both sides run exactly the same computation: onnxruntime
loads the .onnx file, relax-mlir imports it (relax-translate --import-onnx).
The sequence length (or batch) is a symbolic dim (`dim_param`), so one file
serves every size.

  mlp    784-256-10 MLP over a batch n: Gemm (transB, as torch exports
         nn.Linear), Relu, Gemm.
  bert   one BERT-style (post-norm) encoder layer, hidden 384, 12 heads of
         32, FFN 1536, exact (erf) GELU, additive attention mask, batch 1
         and sequence s.
  llama  one Llama-style decoder block, hidden 256, 8 heads of 32, SwiGLU
         FFN of width 704, RMSNorm, rotary embedding (cos/sin tables are
         inputs), additive causal mask input, batch 1 and sequence s.
  llama4 four such blocks, each with its own weights (bench/memory).
  resblock  a ResNet-18 basic block of the first stage: two 3x3 convs of 64
         channels with bias (pad 1) on 56x56, ReLU, residual add, ReLU,
         batch n.
  resnet18  torchvision's ResNet-18 (BatchNormalization), batch n.
  bertbase  the bert layer at BERT-base size: hidden 768, 12 heads of 64,
         FFN 3072.
  llama1k  the llama block at hidden 1024, 16 heads of 64, SwiGLU FFN of
         width 2816.
  resnet50  torchvision's ResNet-50 (v1.5 bottlenecks), batch n.
  convnext  a ConvNeXt block (depthwise 7x7 conv, channels-last
         LayerNormalization between Transposes, 4x pointwise expansion with
         GELU, layer scale, residual) of 96 channels on 56x56, batch n.

Subcommands (run by bench/peers/run.sh inside its venv):
  write DIR                       writes DIR/<model>.onnx
  inputs MODEL.onnx SIZE DIR      writes DIR/in<i>.npy (seeded) for dim=SIZE
  ort MODEL.onnx DIR THREADS RUNS [WARMUP]
                                  prints 'median X ms' of RUNS timed runs
                                  after WARMUP untimed ones (default 1)
                                  beside the first, on DIR's inputs, and
                                  writes DIR/out<i>.npy
"""
import math
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


class Graph:
    """A small builder: fresh names, initializers from seeded numpy."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.count = [], [], 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def const(self, array, base="c"):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def weight(self, *shape, scale=None):
        scale = scale if scale is not None else 1.0 / math.sqrt(shape[0])
        w = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        return self.const(w, "w")

    def op(self, op_type, *inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def model(self, name, inputs, output, out_shape):
        y = helper.make_tensor_value_info(output, TensorProto.FLOAT, out_shape)
        g = helper.make_graph(self.nodes, name, inputs, [y], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m


def f32_input(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def mlp():
    g = Graph(1)
    h = g.op("Gemm", "x", g.weight(256, 784, scale=1 / 28), g.weight(256),
             transB=1)
    h = g.op("Relu", h)
    y = g.op("Gemm", h, g.weight(10, 256, scale=1 / 16), g.weight(10), transB=1)
    return g.model("mlp", [f32_input("x", ["n", 784])], y, ["n", 10])


def linear(g, x, d_in, d_out, bias=True):
    y = g.op("MatMul", x, g.weight(d_in, d_out))
    return g.op("Add", y, g.weight(d_out, scale=0.1)) if bias else y


def heads(g, x, n_heads, head_dim):
    """[1, s, n_heads * head_dim] -> [1, n_heads, s, head_dim]."""
    x = g.op("Reshape", x, g.const(np.array([1, -1, n_heads, head_dim])))
    return g.op("Transpose", x, perm=[0, 2, 1, 3])


def attention(g, q, k, v, mask, hidden, head_dim):
    """softmax(q k^T / sqrt(d) + mask) v, back to [1, s, hidden]."""
    kt = g.op("Transpose", k, perm=[0, 1, 3, 2])
    scores = g.op("MatMul", q, kt)
    scores = g.op("Mul", scores, g.const(np.float32(1 / math.sqrt(head_dim))))
    scores = g.op("Add", scores, mask)
    p = g.op("Softmax", scores, axis=-1)
    ctx = g.op("MatMul", p, v)
    ctx = g.op("Transpose", ctx, perm=[0, 2, 1, 3])
    return g.op("Reshape", ctx, g.const(np.array([1, -1, hidden])))


def layer_norm(g, x, hidden):
    return g.op("LayerNormalization", x, g.weight(hidden, scale=0.1),
                g.weight(hidden, scale=0.1), axis=-1, epsilon=1e-12)


def gelu(g, x):
    """Exact GELU as torch.onnx writes it at opset 17 (no Gelu op before
    opset 20): 0.5 * x * (1 + erf(x / sqrt(2)))."""
    erf = g.op("Erf", g.op("Div", x, g.const(np.float32(math.sqrt(2)))))
    return g.op("Mul", g.op("Mul", x, g.const(np.float32(0.5))),
                g.op("Add", erf, g.const(np.float32(1))))


def bert(hidden=384, n_heads=12, ffn=1536):
    g = Graph(2)
    hd = hidden // n_heads
    x, mask = "x", "mask"
    q = heads(g, linear(g, x, hidden, hidden), n_heads, hd)
    k = heads(g, linear(g, x, hidden, hidden), n_heads, hd)
    v = heads(g, linear(g, x, hidden, hidden), n_heads, hd)
    ctx = attention(g, q, k, v, mask, hidden, hd)
    h1 = layer_norm(g, g.op("Add", x, linear(g, ctx, hidden, hidden)), hidden)
    f = gelu(g, linear(g, h1, hidden, ffn))
    out = layer_norm(g, g.op("Add", h1, linear(g, f, ffn, hidden)), hidden)
    return g.model("bert_layer",
                   [f32_input("x", [1, "s", hidden]),
                    f32_input("mask", [1, 1, 1, "s"])], out, [1, "s", hidden])


def rms_norm(g, x, hidden):
    ms = g.op("ReduceMean", g.op("Mul", x, x), axes=[-1], keepdims=1)
    inv = g.op("Reciprocal",
               g.op("Sqrt", g.op("Add", ms, g.const(np.float32(1e-6)))))
    return g.op("Mul", g.op("Mul", x, inv), g.weight(hidden, scale=0.1))


def rotary(g, t, cos, sin, head_dim):
    """t * cos + rotate_half(t) * sin on [1, heads, s, head_dim]."""
    half = head_dim // 2
    axis = g.const(np.array([3]))
    lo = g.op("Slice", t, g.const(np.array([0])), g.const(np.array([half])),
              axis)
    hi = g.op("Slice", t, g.const(np.array([half])),
              g.const(np.array([head_dim])), axis)
    rot = g.op("Concat", g.op("Neg", hi), lo, axis=-1)
    return g.op("Add", g.op("Mul", t, cos), g.op("Mul", rot, sin))


def llama(hidden=256, n_heads=8, ffn=704, layers=1):
    g = Graph(3)
    hd = hidden // n_heads
    x, cos, sin, mask = "x", "cos", "sin", "mask"
    out = x
    for _ in range(layers):
        out = llama_layer(g, out, cos, sin, mask, hidden, n_heads, ffn)
    return g.model("llama_block" if layers == 1 else f"llama_{layers}layer",
                   [f32_input("x", [1, "s", hidden]),
                    f32_input("cos", ["s", hd]), f32_input("sin", ["s", hd]),
                    f32_input("mask", ["s", "s"])], out, [1, "s", hidden])


def llama_layer(g, x, cos, sin, mask, hidden, n_heads, ffn):
    hd = hidden // n_heads
    h = rms_norm(g, x, hidden)
    q = rotary(g, heads(g, linear(g, h, hidden, hidden, False), n_heads, hd),
               cos, sin, hd)
    k = rotary(g, heads(g, linear(g, h, hidden, hidden, False), n_heads, hd),
               cos, sin, hd)
    v = heads(g, linear(g, h, hidden, hidden, False), n_heads, hd)
    ctx = attention(g, q, k, v, mask, hidden, hd)
    x1 = g.op("Add", x, linear(g, ctx, hidden, hidden, False))
    h2 = rms_norm(g, x1, hidden)
    gate = linear(g, h2, hidden, ffn, False)
    up = linear(g, h2, hidden, ffn, False)
    act = g.op("Mul", g.op("Mul", gate, g.op("Sigmoid", gate)), up)
    return g.op("Add", x1, linear(g, act, ffn, hidden, False))


def resblock(channels=64, size=56):
    g = Graph(4)
    def conv(x):
        return g.op("Conv", x, g.weight(channels, channels, 3, 3,
                                         scale=1 / math.sqrt(9 * channels)),
                    g.weight(channels, scale=0.1), pads=[1, 1, 1, 1],
                    kernel_shape=[3, 3])
    h = g.op("Relu", conv("x"))
    out = g.op("Relu", g.op("Add", conv(h), "x"))
    shape = ["n", channels, size, size]
    return g.model("resblock", [f32_input("x", shape)], out, shape)


def resnet18(classes=1000):
    """torchvision's ResNet-18 as torch.onnx exports it in eval mode: Conv
    without bias, BatchNormalization, Relu, MaxPool, basic blocks with a
    1x1 stride-2 downsample where the width doubles, GlobalAveragePool,
    Flatten, Gemm. Input [n, 3, 224, 224], seeded weights and statistics."""
    g = Graph(5)

    def block(x, cin, cout, stride):
        h = g.op("Relu", conv_bn(g, x, cin, cout, 3, stride, 1))
        h = conv_bn(g, h, cout, cout, 3, 1, 1)
        skip = x if stride == 1 and cin == cout else \
            conv_bn(g, x, cin, cout, 1, stride, 0)
        return g.op("Relu", g.op("Add", h, skip))

    x = resnet_stem(g)
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        x = block(x, cin, cout, stride)
        x = block(x, cout, cout, 1)
        cin = cout
    return resnet_head(g, x, cin, classes, "resnet18")


def resnet50(classes=1000):
    """torchvision's ResNet-50 (v1.5: the stride on the 3x3 conv of the
    bottleneck) as torch.onnx exports it in eval mode: stages of 3, 4, 6, 3
    bottlenecks (1x1, 3x3, 1x1 to 4x the width), a 1x1 downsample (stride
    of the stage) on each stage's first block, the ResNet-18 stem and head.
    Input [n, 3, 224, 224], seeded weights and statistics."""
    g = Graph(6)

    def bottleneck(x, cin, width, stride):
        cout = 4 * width
        h = g.op("Relu", conv_bn(g, x, cin, width, 1, 1, 0))
        h = g.op("Relu", conv_bn(g, h, width, width, 3, stride, 1))
        # The last BatchNormalization of each block scaled down (gamma
        # around 0.2), as trained ResNets have it, so that 16 residual adds
        # of random weights do not grow the activations by orders of
        # magnitude.
        h = conv_bn(g, h, width, cout, 1, 1, 0, gamma=0.2)
        skip = x if stride == 1 and cin == cout else \
            conv_bn(g, x, cin, cout, 1, stride, 0)
        return g.op("Relu", g.op("Add", h, skip))

    x = resnet_stem(g)
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2),
                                  (512, 3, 2)):
        for i in range(blocks):
            x = bottleneck(x, cin, width, stride if i == 0 else 1)
            cin = 4 * width
    return resnet_head(g, x, cin, classes, "resnet50")


def conv_bn(g, x, cin, cout, k, stride, pad, gamma=1.0):
    """Conv without bias and an inference BatchNormalization."""
    w = g.weight(cout, cin, k, k, scale=math.sqrt(2.0 / (cin * k * k)))
    y = g.op("Conv", x, w, kernel_shape=[k, k], strides=[stride, stride],
             pads=[pad] * 4)
    gamma = g.const((gamma * (1 + 0.1 * g.rng.standard_normal(cout)))
                    .astype(np.float32))
    beta = g.const((0.1 * g.rng.standard_normal(cout)).astype(np.float32))
    mean = g.const((0.1 * g.rng.standard_normal(cout)).astype(np.float32))
    var = g.const((1 + 0.1 * g.rng.random(cout)).astype(np.float32))
    return g.op("BatchNormalization", y, gamma, beta, mean, var,
                epsilon=1e-5)


def resnet_stem(g):
    """7x7 stride-2 conv to 64 channels, BatchNormalization, Relu, 3x3
    stride-2 MaxPool: [n, 3, 224, 224] -> [n, 64, 56, 56]."""
    x = g.op("Relu", conv_bn(g, "x", 3, 64, 7, 2, 3))
    return g.op("MaxPool", x, kernel_shape=[3, 3], strides=[2, 2],
                pads=[1, 1, 1, 1])


def resnet_head(g, x, channels, classes, name):
    """GlobalAveragePool, Flatten, Gemm (transB, as nn.Linear exports)."""
    x = g.op("Flatten", g.op("GlobalAveragePool", x), axis=1)
    y = g.op("Gemm", x,
             g.weight(classes, channels, scale=1 / math.sqrt(channels)),
             g.weight(classes, scale=0.01), transB=1)
    return g.model(name, [f32_input("x", ["n", 3, 224, 224])], y,
                   ["n", classes])


def convnext(channels=96, size=56):
    """One block of torchvision's ConvNeXt-T first stage (CNBlock) as
    torch.onnx exports it: depthwise 7x7 conv with bias (pad 3), a permute
    to channels-last (Transpose), LayerNormalization over the channels
    (eps 1e-6), Linear to 4x the channels, exact GELU, Linear back, a
    permute to channels-first, the layer scale ([C, 1, 1] Mul; seeded
    around 0.5 rather than torchvision's 1e-6 initial value, so that the
    block's branch shows in the output), residual add. Input [n, 96, 56,
    56]."""
    g = Graph(7)
    c = channels
    h = g.op("Conv", "x", g.weight(c, 1, 7, 7, scale=1 / 7),
             g.weight(c, scale=0.1), group=c, kernel_shape=[7, 7],
             pads=[3, 3, 3, 3])
    h = g.op("Transpose", h, perm=[0, 2, 3, 1])
    h = g.op("LayerNormalization", h,
             g.const((1 + 0.1 * g.rng.standard_normal(c)).astype(np.float32)),
             g.weight(c, scale=0.1), axis=-1, epsilon=1e-6)
    h = gelu(g, linear(g, h, c, 4 * c))
    h = linear(g, h, 4 * c, c)
    h = g.op("Transpose", h, perm=[0, 3, 1, 2])
    h = g.op("Mul", h, g.const((0.5 * (1 + 0.1 * g.rng.standard_normal(
        (c, 1, 1)))).astype(np.float32)))
    out = g.op("Add", "x", h)
    shape = ["n", c, size, size]
    return g.model("convnext_block", [f32_input("x", shape)], out, shape)


MODELS = {"mlp": mlp, "bert": bert, "llama": llama,
          "llama4": lambda: llama(layers=4), "resblock": resblock,
          "resnet18": resnet18,
          "bertbase": lambda: bert(hidden=768, n_heads=12, ffn=3072),
          "llama1k": lambda: llama(hidden=1024, n_heads=16, ffn=2816),
          "resnet50": resnet50, "convnext": convnext}


def dims_of(value_info):
    return [d.dim_value if d.HasField("dim_value") else d.dim_param
            for d in value_info.type.tensor_type.shape.dim]


def write_inputs(model_path, size, out_dir):
    """Seeded inputs; every symbolic dim is `size`. A [s, s] mask is causal."""
    m = onnx.load(model_path)
    rng = np.random.default_rng(7)
    os.makedirs(out_dir, exist_ok=True)
    for i, inp in enumerate(m.graph.input):
        shape = [size if isinstance(d, str) else d for d in dims_of(inp)]
        if inp.name == "mask":
            a = np.zeros(shape, np.float32)
            if len(shape) == 2:
                a = np.triu(np.full(shape, -1e9, np.float32), k=1)
        else:
            a = rng.standard_normal(shape).astype(np.float32)
        np.save(os.path.join(out_dir, f"in{i}.npy"), a)


def time_ort(model_path, data_dir, threads, runs, warmup=1):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(model_path, opts,
                                providers=["CPUExecutionProvider"])
    feeds = {inp.name: np.load(os.path.join(data_dir, f"in{i}.npy"))
             for i, inp in enumerate(sess.get_inputs())}
    outs = sess.run(None, feeds)
    for i, o in enumerate(outs):
        np.save(os.path.join(data_dir, f"out{i}.npy"), o)
    for _ in range(warmup):
        sess.run(None, feeds)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        sess.run(None, feeds)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"median {float(np.median(times)):.4f} ms")


def main(argv):
    cmd = argv[1]
    if cmd == "write":
        os.makedirs(argv[2], exist_ok=True)
        for name, build in MODELS.items():
            onnx.save(build(), os.path.join(argv[2], f"{name}.onnx"))
    elif cmd == "inputs":
        write_inputs(argv[2], int(argv[3]), argv[4])
    elif cmd == "ort":
        time_ort(argv[2], argv[3], int(argv[4]), int(argv[5]),
                 int(argv[6]) if len(argv) > 6 else 1)
    else:
        sys.exit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
