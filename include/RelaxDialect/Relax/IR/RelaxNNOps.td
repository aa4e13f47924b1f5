//===- RelaxNNOps.td - neural-network ops ------------------*- tablegen -*-===//
//
// Normalisations, NCHW convolution and pooling, and attention. Window sizes
// are computed symbolically (floordiv / ceildiv expressions over the input
// dims); parameter shapes are checked against the data with the symbolic
// engine: provably different is an error, undecidable is accepted.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_NN_OPS_TD
#define RELAX_NN_OPS_TD

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

def Relax_LayerNormOp : Relax_TensorOp<"layer_norm"> {
  let summary = "Layer normalisation with affine parameters";
  let description = [{
    Normalises `input` over `axes` (negative count from the end; repeats are
    an error) and applies `gamma * x + beta`. `gamma` and `beta` must have
    the shape of the normalised dims in axis order (for the usual trailing
    axes: the trailing dims of `input`): a rank difference or a provably
    different dim is an error naming both expressions; a dim that can be
    neither proven equal nor different (e.g. `n` vs `m`) is accepted and
    left to the runtime. All three tensors share a floating-point dtype.
    The result has the input's type; with an input of unknown rank nothing
    is checked.

    ```mlir
    %y = relax.layer_norm %x, %g, %b {axes = array<i64: -1>, epsilon = 1.0e-05 : f64} : (!relax.tensor<[n, s, 768], f32>, !relax.tensor<[768], f32>, !relax.tensor<[768], f32>) -> !relax.tensor<[n, s, 768], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$gamma,
                       Relax_AnyTensor:$beta,
                       DenseI64ArrayAttr:$axes,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_RMSNormOp : Relax_TensorOp<"rms_norm"> {
  let summary = "Root-mean-square normalisation with a scale";
  let description = [{
    `x / sqrt(mean(x^2, axes) + epsilon) * weight`. `weight` is checked like
    layer_norm's `gamma` (shape of the normalised dims; provably different
    is an error, undecidable accepted). The result has the input's type.

    ```mlir
    %y = relax.rms_norm %x, %w {axes = array<i64: -1>} : (!relax.tensor<[n, 4096], f16>, !relax.tensor<[4096], f16>) -> !relax.tensor<[n, 4096], f16>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$weight,
                       DenseI64ArrayAttr:$axes,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_GroupNormOp : Relax_TensorOp<"group_norm"> {
  let summary = "Group normalisation with affine parameters";
  let description = [{
    Splits the `channel_axis` dim C into `num_groups` groups and normalises
    each group over its channels and `axes` (which must not contain the
    channel axis). `gamma` and `beta` are 1-D of size C (provably different
    is an error, undecidable accepted). C must be divisible by
    `num_groups`: `C mod num_groups` provably non-zero (e.g. C = 6 with 4
    groups, or C = 4 * k + 2) is an error; when it cannot be decided
    (C = c) it is accepted and checked at run time. The result has the
    input's type.

    ```mlir
    %y = relax.group_norm %x, %g, %b {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 8 : i64} : (!relax.tensor<[n, 32, h, w], f32>, !relax.tensor<[32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32, h, w], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$gamma,
                       Relax_AnyTensor:$beta, I64Attr:$num_groups,
                       I64Attr:$channel_axis, DenseI64ArrayAttr:$axes,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_BatchNormOp : Relax_TensorOp<"batch_norm"> {
  let summary = "Batch normalisation, inference form";
  let description = [{
    `(x - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta` along
    `axis` (default 1, the NCHW channel). The four parameters are 1-D of the
    size of that dim (provably different is an error, undecidable
    accepted). Only the normalised tensor is returned (the training form's
    updated statistics are not): the result has the input's type.

    ```mlir
    %y = relax.batch_norm %x, %g, %b, %m, %v {axis = 1 : i64} : (!relax.tensor<[n, 16, h, w], f32>, !relax.tensor<[16], f32>, !relax.tensor<[16], f32>, !relax.tensor<[16], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[n, 16, h, w], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$gamma,
                       Relax_AnyTensor:$beta, Relax_AnyTensor:$moving_mean,
                       Relax_AnyTensor:$moving_var,
                       DefaultValuedAttr<I64Attr, "1">:$axis,
                       DefaultValuedAttr<F64Attr, "1e-5">:$epsilon);
  let results = (outs Relax_AnyTensor:$result);
}

//===----------------------------------------------------------------------===//
// Convolution and pooling (NCHW)
//===----------------------------------------------------------------------===//

def Relax_Conv2DOp : Relax_TensorOp<"conv2d"> {
  let summary = "2-D convolution, NCHW data and OIHW weight";
  let description = [{
    `input` is [n, c, h, w], `weight` is [o, c / groups, kh, kw]; the result
    is [n, o, oh, ow] with

        oh = (h + pad_top + pad_bottom - dilation_h * (kh - 1) - 1)
                 floordiv stride_h + 1

    (and the same for w) built as a canonical symbolic expression, so
    symbolic h, w and kernel sizes are supported. `padding` has 4 values
    (top, left, bottom, right), 2 (vertical, horizontal) or 1; `strides`
    and `dilation` 2 or 1 (defaults 1, padding defaults 0). Checked:
    ranks, positive strides/dilation/groups and non-negative padding, equal
    dtypes, `c == weight in-channels * groups` and `o mod groups == 0`
    (provably false is an error naming both expressions; undecidable is
    accepted). A dim that is `?` gives a `?` where it is used. An input or
    weight of unknown rank is treated as four `?` dims.

    ```mlir
    %y = relax.conv2d %x, %w {padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[16, 3, 3, 3], f32>) -> !relax.tensor<[n, 16, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_Conv2DTransposeOp : Relax_TensorOp<"conv2d_transpose"> {
  let summary = "2-D transposed convolution, NCHW data and IOHW weight";
  let description = [{
    The gradient of conv2d with respect to its input (ONNX ConvTranspose
    in 2-D): `input` is [n, c, h, w], `weight` is [c, o / groups, kh, kw];
    the result is [n, o, oh, ow] with

        oh = (h - 1) * stride_h + dilation_h * (kh - 1) + output_padding_h
             + 1 - pad_top - pad_bottom

    (and the same for w) built as a canonical symbolic expression.
    `strides`, `dilation` (1 or 2 values, >= 1, default 1), `padding` (4
    values top, left, bottom, right; 2; or 1; >= 0, default 0) as for
    conv2d; `output_padding` (1 or 2 values, default 0) adds rows and
    columns at the bottom and right and must be smaller than the stride or
    the dilation of its dim. Checked: ranks, equal dtypes, `c` equal to the
    weight's dim 0 and `c mod groups == 0` (provably false is an error
    naming both expressions; undecidable is accepted and `c == weight dim 0`
    is checked at run time), an output size provably below 1. A 1-D
    ConvTranspose is this op on [n, c, 1, l] with a [c, o / groups, 1, k]
    weight (expand_dims, then squeeze).

    ```mlir
    %y = relax.conv2d_transpose %x, %w {padding = array<i64: 1>, strides = array<i64: 2>, output_padding = array<i64: 1>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 8, 3, 3], f32>) -> !relax.tensor<[n, 8, h * 2, w * 2], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$weight,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_Resize2DOp : Relax_TensorOp<"resize2d"> {
  let summary = "Resizes the two spatial dims of an NCHW tensor";
  let description = [{
    ONNX Resize over h and w of [n, c, h, w]: the result is
    [n, c, size[0], size[1]] where `size` holds two symbolic expressions
    (`#relax.shape<[h * 2, w * 2]>`; ONNX scales become
    `floor(h * scale)`, e.g. `h floordiv 2` for 0.5). Each output
    coordinate x maps to an input coordinate by
    `coordinate_transformation_mode`, with `scale` = `scales[i]` when given
    (ONNX's scales input, so that a non-integer scale maps exactly as in
    ONNX) and `size / in` otherwise:

    | mode | input coordinate |
    |---|---|
    | `half_pixel` (default) | `(x + 0.5) / scale - 0.5` |
    | `pytorch_half_pixel` | the same, `0` when the output dim is 1 |
    | `asymmetric` | `x / scale` |
    | `align_corners` | `x * (in - 1) / (size - 1)`, `0` when size is 1 |

    `method = "nearest"` (default) rounds the coordinate by `nearest_mode`
    (`round_prefer_floor` (default), `round_prefer_ceil`, `floor`, `ceil`);
    `"linear"` interpolates bilinearly between the two neighbours of each
    dim. Indices are clamped to the input (edge values), as ONNX does.
    linear needs a float dtype; nearest takes any. Checked: rank 4, the
    attribute values, `size` of two dims that are not `?` and not provably
    negative, positive `scales`. Coordinates are computed in f32 (f64 for
    f64 data).

    ```mlir
    %y = relax.resize2d %x {size = #relax.shape<[h * 2, w * 2]>, method = "linear", coordinate_transformation_mode = "align_corners"} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_ShapeExprAttr:$size,
                       OptionalAttr<DenseF64ArrayAttr>:$scales,
                       DefaultValuedStrAttr<StrAttr, "nearest">:$method,
                       DefaultValuedStrAttr<StrAttr, "half_pixel">:
                           $coordinate_transformation_mode,
                       DefaultValuedStrAttr<StrAttr, "round_prefer_floor">:
                           $nearest_mode);
  let results = (outs Relax_AnyTensor:$result);
}

class Relax_Pool2DOp<string mnemonic, string what>
    : Relax_TensorOp<mnemonic> {
  let summary = "2-D " # what # " pooling, NCHW";
  let description = [{
    Slides a `pool_size` window (2 values, or 1 for a square window) over
    the h and w dims of an [n, c, h, w] input. `strides`, `dilation` (2 or
    1 values, default 1) and `padding` (4 values top, left, bottom, right;
    2; or 1; default 0) as for conv2d. The output spatial size is

        (h + pad_top + pad_bottom - dilation * (k - 1) - 1) floordiv stride + 1

    or with `ceildiv` when `ceil_mode = true` (no clamping of a last window
    that starts in the padding). An input of unknown rank gives
    [?, ?, ?, ?].

    ```mlir
    %y = relax.}] # mnemonic # [{ %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h floordiv 2, w floordiv 2], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       DenseI64ArrayAttr:$pool_size,
                       OptionalAttr<DenseI64ArrayAttr>:$strides,
                       OptionalAttr<DenseI64ArrayAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$dilation,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_MaxPool2DOp : Relax_Pool2DOp<"max_pool2d", "max">;
def Relax_AvgPool2DOp : Relax_Pool2DOp<"avg_pool2d", "average">;

def Relax_AdaptiveAvgPool2DOp : Relax_TensorOp<"adaptive_avg_pool2d"> {
  let summary = "2-D adaptive average pooling to a fixed output size, NCHW";
  let description = [{
    Averages [n, c, h, w] into [n, c, oh, ow] with `output_size` = [oh, ow]
    (1 value: square); without `output_size` the spatial dims are kept.
    Sizes must be positive. An input of unknown rank gives [?, ?, oh, ow].

    ```mlir
    %y = relax.adaptive_avg_pool2d %x {output_size = array<i64: 7, 7>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 7, 7], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$output_size);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_GlobalAvgPool2DOp : Relax_TensorOp<"global_avg_pool2d"> {
  let summary = "2-D global average pooling, NCHW";
  let description = [{
    Averages each channel of [n, c, h, w] to one value: [n, c, 1, 1]. An
    input of unknown rank gives [?, ?, 1, 1].

    ```mlir
    %y = relax.global_avg_pool2d %x : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyTensor:$result);
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

def Relax_AttentionOp : Relax_TensorOp<"attention"> {
  let summary = "Scaled dot-product attention, BSNH layout, grouped heads";
  let description = [{
    `softmax(q k^T * scale [+ mask]) v` per head. Layout is TVM's BSNH:
    `query` [b, s, hq, d], `key` [b, skv, hkv, d], `value`
    [b, skv, hkv, dv]; the result is [b, s, hq, dv]. Grouped-query
    attention: `hq` must be a multiple of `hkv` (each key/value head serves
    `hq / hkv` query heads): `hq mod hkv` provably non-zero is an error
    (with constants, 8 heads over 3 kv heads), undecidable is accepted.
    Batch, head dim d, skv and hkv must agree across operands: provably
    different is an error naming both expressions; an undecidable batch
    becomes `?` in the result, the others are accepted. q, k, v share a
    floating-point dtype.

    The optional fourth operand `mask` (any dtype: boolean or additive) must
    broadcast to [b, hq, s, skv] by numpy rules. `scale` defaults to
    `1 / sqrt(d)`; `causal = true` applies a lower-triangular mask aligned
    to the bottom-right. Operands of unknown rank count as four `?` dims.

    ```mlir
    %o = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
    %m = relax.attention %q, %k, %v, %mask : (!relax.tensor<[b, s, 8, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[b, t, 2, 64], f16>, !relax.tensor<[1, 1, s, t], f16>) -> !relax.tensor<[b, s, 8, 64], f16>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$query, Relax_AnyTensor:$key,
                       Relax_AnyTensor:$value,
                       Optional<Relax_AnyTensor>:$mask,
                       OptionalAttr<F64Attr>:$scale,
                       DefaultValuedAttr<BoolAttr, "false">:$causal);
  let results = (outs Relax_AnyTensor:$result);
}


//===----------------------------------------------------------------------===//
// Recurrences
//===----------------------------------------------------------------------===//

// The recurrent layers (ONNX RNN, LSTM, GRU) without their input
// projection: `xw` already holds X * W^T + Wb for every step, so the op is
// only the sequential part, h * R^T per step and the gate update.
class Relax_RecurrentOp<string mnemonic, string what, int gates,
                        string example>
    : Relax_TensorOp<mnemonic> {
  let summary = what # " recurrence over a sequence (input projection done)";
  let description = [{
    Runs the }] # what # [{ recurrence of ONNX's op of that name over `seq`
    steps for every batch element and direction, given the input projection
    `xw` = X * W^T + Wb (shape `[seq, batch, D, }] # gates # [{ * H]`, the
    gates in ONNX order), the recurrence weights `r` (`[D, }] # gates #
    [{ * H, H]`), the recurrence bias `rb` (`[D, }] # gates # [{ * H]`, added
    to h * R^T), the initial state(s) `[D, batch, H]` and the per-batch
    `sequence_lens` (`[batch]`, any integer dtype). `D` is 2 for `direction
    = "bidirectional"` (forward then reverse) and 1 otherwise.

    Results: `y` `[seq, D, batch, H]` (the hidden state after each step; zero
    at and beyond a sequence's length) and the final state(s) `[D, batch, H]`
    (the state after each sequence's last valid step). A reverse direction
    walks steps `len - 1` down to 0. Lengths are clamped to `[0, seq]` at run
    time (a length of 0 leaves the initial state).

    `activations` (default: ONNX's for the op), one list per direction, are
    Sigmoid, Tanh, Relu, HardSigmoid, LeakyRelu, Affine, ScaledTanh, Elu,
    Softsign, Softplus or ThresholdedRelu; `activation_alpha` and
    `activation_beta`, when present, hold one value per activation (the
    importer fills the ONNX defaults). `clip` bounds every gate
    pre-activation to `[-clip, clip]`. lstm also takes `initial_c` and the
    peepholes `[D, 3 * H]` (ONNX's P, order i, o, f) and returns the final
    cell state; `input_forget` couples the forget gate to 1 - input gate.
    gru's `linear_before_reset` applies the reset gate after h * R^T + Rb.

    The dims are checked with the symbolic engine: provably different is an
    error, undecidable is accepted; dtypes must be one floating-point dtype.

    ```mlir
    }] # example # [{
    ```
  }];
  let results = !if(!eq(mnemonic, "lstm"),
      (outs Relax_AnyTensor:$y, Relax_AnyTensor:$y_h, Relax_AnyTensor:$y_c),
      (outs Relax_AnyTensor:$y, Relax_AnyTensor:$y_h));
}

def Relax_RNNOp : Relax_RecurrentOp<"rnn", "Elman RNN", 1,
    "%y, %yh = relax.rnn %xw, %r, %rb, %h0, %lens {direction = \"bidirectional\"} : (!relax.tensor<[s, n, 2, 8], f32>, !relax.tensor<[2, 8, 8], f32>, !relax.tensor<[2, 8], f32>, !relax.tensor<[2, n, 8], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 2, n, 8], f32>, !relax.tensor<[2, n, 8], f32>)"> {
  let arguments = (ins Relax_AnyTensor:$xw, Relax_AnyTensor:$r,
                       Relax_AnyTensor:$rb, Relax_AnyTensor:$initial_h,
                       Relax_AnyTensor:$sequence_lens,
                       DefaultValuedAttr<StrAttr, "\"forward\"">:$direction,
                       OptionalAttr<StrArrayAttr>:$activations,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_alpha,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_beta,
                       OptionalAttr<F64Attr>:$clip);
}

def Relax_GRUOp : Relax_RecurrentOp<"gru", "GRU", 3,
    "%y, %yh = relax.gru %xw, %r, %rb, %h0, %lens {linear_before_reset = true} : (!relax.tensor<[s, n, 1, 24], f32>, !relax.tensor<[1, 24, 8], f32>, !relax.tensor<[1, 24], f32>, !relax.tensor<[1, n, 8], f32>, !relax.tensor<[n], i64>) -> (!relax.tensor<[s, 1, n, 8], f32>, !relax.tensor<[1, n, 8], f32>)"> {
  let arguments = (ins Relax_AnyTensor:$xw, Relax_AnyTensor:$r,
                       Relax_AnyTensor:$rb, Relax_AnyTensor:$initial_h,
                       Relax_AnyTensor:$sequence_lens,
                       DefaultValuedAttr<StrAttr, "\"forward\"">:$direction,
                       OptionalAttr<StrArrayAttr>:$activations,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_alpha,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_beta,
                       OptionalAttr<F64Attr>:$clip,
                       DefaultValuedAttr<BoolAttr, "false">:$linear_before_reset);
}

def Relax_LSTMOp : Relax_RecurrentOp<"lstm", "LSTM", 4,
    "%y, %yh, %yc = relax.lstm %xw, %r, %rb, %h0, %c0, %p, %lens : (!relax.tensor<[s, n, 1, 32], f32>, !relax.tensor<[1, 32, 8], f32>, !relax.tensor<[1, 32], f32>, !relax.tensor<[1, n, 8], f32>, !relax.tensor<[1, n, 8], f32>, !relax.tensor<[1, 24], f32>, !relax.tensor<[n], i32>) -> (!relax.tensor<[s, 1, n, 8], f32>, !relax.tensor<[1, n, 8], f32>, !relax.tensor<[1, n, 8], f32>)"> {
  let arguments = (ins Relax_AnyTensor:$xw, Relax_AnyTensor:$r,
                       Relax_AnyTensor:$rb, Relax_AnyTensor:$initial_h,
                       Relax_AnyTensor:$initial_c, Relax_AnyTensor:$peepholes,
                       Relax_AnyTensor:$sequence_lens,
                       DefaultValuedAttr<StrAttr, "\"forward\"">:$direction,
                       OptionalAttr<StrArrayAttr>:$activations,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_alpha,
                       OptionalAttr<DenseF64ArrayAttr>:$activation_beta,
                       OptionalAttr<F64Attr>:$clip,
                       DefaultValuedAttr<BoolAttr, "false">:$input_forget);
}

#endif // RELAX_NN_OPS_TD
