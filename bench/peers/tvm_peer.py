"""TVM Relax as an optional peer of the side-by-side benchmark (bench/peers).

Runs inside bench/peers/.venv-tvm (apache-tvm, onnx, numpy; made by
tvm_python in bench/lib.sh), apart from models.py's .venv: TVM's wheel is
large and may not install everywhere, and models.py's onnxruntime is not
needed here.

  tvm MODEL.onnx DIR THREADS RUNS
      imports MODEL.onnx with tvm.relax.frontend.onnx.from_onnx, compiles it
      for "llvm -mcpu=native" with TVM's default CPU pipeline (no tuning),
      runs it in the Relax VM on DIR/in<i>.npy once (warm-up, compilation
      not timed), checks the outputs against DIR/out<i>.npy (onnxruntime's,
      written by `models.py ort`) with rtol 1e-3, atol 1e-4, then prints
      'median X ms' of RUNS timed calls, like `models.py ort`. Exits non-zero
      with a message on stderr if the import, the compilation or the check
      fails. THREADS is TVM_NUM_THREADS, the size of TVM's thread pool;
      RUNS 0 only checks (prints nothing).
"""
import os
import sys
import time


def compile_model(model_path):
    import onnx
    import tvm
    from tvm import relax
    from tvm.relax.backend.cpu_generic import pipeline as cpu_generic
    from tvm.relax.frontend.onnx import from_onnx
    from tvm.s_tir import dlight as dl

    # No shape_dict: the ONNX dim_params (batch n, sequence s) become
    # symbolic Relax shape variables, so one compiled module serves every
    # size, as on relax-mlir's side (which also compiles the symbolic model).
    mod = from_onnx(onnx.load(model_path))
    # "llvm -mcpu=native": 0.27 takes targets only in the JSON form, and we
    # name the host CPU (as LLVM sees it) rather than rely on "native".
    target = tvm.target.Target(
        {"kind": "llvm", "mcpu": tvm.target.codegen.llvm_get_system_cpu()})
    # TVM's default CPU pipeline is relax.get_default_pipeline(target) for an
    # llvm target (relax/backend/cpu_generic): legalization to TIR, constant
    # folding, operator fusion (FuseOps, FuseTIR), then the VM lowering. We
    # compose it from the same pass lists to put two things in:
    #  - DecomposeOpsForInference first (inference-mode BatchNormalization,
    #    as TVM's own static_shape_tuning_pipeline does before fusion);
    #  - dlight's CPU default schedules (GEMV, Reduction: parallel and
    #    vectorized loops) after fusion, the CPU counterpart of what the GPU
    #    pipelines do with dl.gpu rules. Kernels they do not match (matmul,
    #    conv) keep LegalizeOps' plain loop nests.
    # No meta-schedule tuning: far too slow for this benchmark.
    # tvm.compile(mod, target) alone would use "default_build", which does
    # no fusion on the CPU. On the MLP and the Llama block (seq 128 and 1)
    # at one thread, default_build, get_default_pipeline and this one gave
    # the same times within noise (2026-12-04): the plain matmul loops
    # dominate.
    pipeline = tvm.transform.Sequential(
        [relax.transform.DecomposeOpsForInference(),
         relax.transform.CanonicalizeBindings()]
        + cpu_generic.library_dispatch_passes(target)
        + cpu_generic.legalize_passes(target)
        + [dl.ApplyDefaultSchedule(dl.cpu.GEMV(), dl.cpu.Reduction())]
        + cpu_generic.dataflow_lower_passes(target)
        + cpu_generic.finalize_passes(target))
    ex = tvm.compile(mod, target, relax_pipeline=pipeline)
    return relax.VirtualMachine(ex, tvm.cpu())


def outputs_of(result):
    import tvm

    if isinstance(result, tvm.runtime.Tensor):
        return [result.numpy()]
    return [o.numpy() for o in result]


def time_tvm(model_path, data_dir, threads, runs):
    # TVM's thread pool reads TVM_NUM_THREADS when it starts.
    os.environ["TVM_NUM_THREADS"] = str(threads)
    import numpy as np
    import tvm

    name = os.path.basename(model_path)
    try:
        vm = compile_model(model_path)
    except Exception as e:  # pylint: disable=broad-except
        first = str(e).strip().splitlines()
        sys.exit(f"tvm: {name}: import/compile failed: {type(e).__name__}: "
                 f"{first[-1] if first else ''}")
    main = vm["main"]
    n_in = len([f for f in os.listdir(data_dir)
                if f.startswith("in") and f.endswith(".npy")])
    args = [tvm.runtime.tensor(np.load(os.path.join(data_dir, f"in{i}.npy")))
            for i in range(n_in)]
    outs = outputs_of(main(*args))
    for i, o in enumerate(outs):
        want = np.load(os.path.join(data_dir, f"out{i}.npy"))
        if o.shape != want.shape or not np.allclose(o, want, rtol=1e-3,
                                                    atol=1e-4):
            err = (float(np.max(np.abs(o - want))) if o.shape == want.shape
                   else f"shape {o.shape} vs {want.shape}")
            sys.exit(f"tvm: {name}: output {i} does not match onnxruntime's "
                     f"(rtol 1e-3, atol 1e-4; max abs error {err})")
    if runs == 0:
        return
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        main(*args)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"median {float(np.median(times)):.4f} ms")


def main(argv):
    if len(argv) == 6 and argv[1] == "tvm":
        time_tvm(argv[2], argv[3], int(argv[4]), int(argv[5]))
    else:
        sys.exit("usage: tvm_peer.py tvm MODEL.onnx DIR THREADS RUNS")


if __name__ == "__main__":
    main(sys.argv)
