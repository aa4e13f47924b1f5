"""Runs an ONNX model with onnxruntime (CPUExecutionProvider, one thread)
on DIR/in<i>.npy, RUNS times, and prints the process's peak resident set
size: 'maxrss N KiB'. Imports only numpy and onnxruntime, so the figure is
the runtime's and the model's, not a model builder's.

    python ort_rss.py MODEL.onnx DIR RUNS
"""
import os
import resource
import sys

import numpy as np
import onnxruntime as ort


def main(model, data, runs):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(model, opts,
                                providers=["CPUExecutionProvider"])
    feeds = {inp.name: np.load(os.path.join(data, f"in{i}.npy"))
             for i, inp in enumerate(sess.get_inputs())}
    for _ in range(runs):
        sess.run(None, feeds)
    print(f"maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} KiB")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
