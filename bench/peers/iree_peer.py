"""IREE as an optional peer of the side-by-side benchmark (bench/peers).

Runs inside bench/peers/.venv-iree (iree-base-compiler, iree-base-runtime,
onnx, numpy; made by iree_python in bench/lib.sh), apart from models.py's
.venv, as tvm_peer.py does with TVM.

  compile MODEL.onnx
      imports MODEL.onnx with iree-import-onnx (the ONNX dim_params stay
      dynamic dims, so one module serves every size, as on relax-mlir's
      side) into MODEL.iree.mlir and compiles it with iree-compile for the
      local llvm-cpu backend and the host CPU (--iree-llvmcpu-target-cpu=
      host) into MODEL.vmfb. Skipped when MODEL.vmfb is newer than
      MODEL.onnx. Exits non-zero with a message on stderr if either fails.
  iree MODEL.onnx DIR THREADS RUNS
      compiles as above if needed, loads MODEL.vmfb into the runtime, runs
      it on DIR/in<i>.npy once (warm-up; compilation not timed), checks the
      outputs against DIR/out<i>.npy (onnxruntime's, written by `models.py
      ort`) with rtol 1e-3, atol 1e-4, then prints 'median X ms' of RUNS
      timed calls, like `models.py ort`; RUNS 0 only checks. THREADS 1 runs
      on the local-sync device (the calling thread, no task system);
      THREADS n > 1 on local-task with n worker groups
      (--task_topology_group_count=n: exactly n, whatever the topology
      detection finds). Inputs are placed on the device once, before the
      timed calls; each timed call includes reading the outputs back to
      host arrays (onnxruntime's run returns numpy arrays too).
"""
import os
import subprocess
import sys
import time

COMPILE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
]


def tool(name):
    """The venv's console script (next to this interpreter), else PATH's."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.path.exists(here) else name


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    # iree-compile's diagnostics: the "error:" line says the most.
    errors = [l for l in lines if "error:" in l]
    return (errors[0] if errors else lines[-1] if lines else "").strip()


def compile_model(model_path):
    """MODEL.vmfb next to MODEL.onnx (reused while newer than the .onnx)."""
    base = os.path.splitext(model_path)[0]
    vmfb = base + ".vmfb"
    if (os.path.exists(vmfb)
            and os.path.getmtime(vmfb) >= os.path.getmtime(model_path)):
        return vmfb
    name = os.path.basename(model_path)
    mlir = base + ".iree.mlir"
    steps = [("import", [tool("iree-import-onnx"), model_path, "-o", mlir]),
             ("compile", [tool("iree-compile"), mlir, *COMPILE_FLAGS,
                          "-o", vmfb + ".tmp"])]
    for what, cmd in steps:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if p.returncode != 0:
            sys.exit(f"iree: {name}: {what} failed: "
                     f"{last_line(p.stderr + p.stdout)}")
    os.replace(vmfb + ".tmp", vmfb)
    return vmfb


def load(vmfb, threads):
    import iree.runtime as rt

    if threads == 1:
        device = rt.get_device("local-sync")
    else:
        # Process-wide flags, read when the local-task device is created.
        rt.flags.parse_flags(f"--task_topology_group_count={threads}")
        device = rt.get_device("local-task")
    config = rt.Config(device=device)
    with open(vmfb, "rb") as f:
        module = rt.VmModule.copy_buffer(config.vm_instance, f.read())
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(module)
    # The ONNX graph's function: the module's one export that is neither
    # an initializer nor the $async variant.
    names = [n for n in module.function_names
             if not n.startswith("__") and not n.endswith("$async")]
    if len(names) != 1:
        sys.exit(f"iree: {vmfb}: expected one exported function, got {names}")
    return rt, device, ctx.modules[module.name][names[0]]


def outputs_of(result):
    if isinstance(result, (list, tuple)):
        return [o.to_host() for o in result]
    return [result.to_host()]


def time_iree(model_path, data_dir, threads, runs):
    import numpy as np

    name = os.path.basename(model_path)
    vmfb = compile_model(model_path)
    try:
        rt, device, fn = load(vmfb, threads)
    except Exception as e:  # pylint: disable=broad-except
        sys.exit(f"iree: {name}: load failed: {type(e).__name__}: "
                 f"{last_line(str(e))}")
    n_in = len([f for f in os.listdir(data_dir)
                if f.startswith("in") and f.endswith(".npy")])
    args = [rt.asdevicearray(device,
                             np.load(os.path.join(data_dir, f"in{i}.npy")))
            for i in range(n_in)]
    try:
        outs = outputs_of(fn(*args))
    except Exception as e:  # pylint: disable=broad-except
        sys.exit(f"iree: {name}: run failed: {type(e).__name__}: "
                 f"{last_line(str(e))}")
    for i, o in enumerate(outs):
        want = np.load(os.path.join(data_dir, f"out{i}.npy"))
        if o.shape != want.shape or not np.allclose(o, want, rtol=1e-3,
                                                    atol=1e-4):
            err = (float(np.max(np.abs(o - want))) if o.shape == want.shape
                   else f"shape {o.shape} vs {want.shape}")
            sys.exit(f"iree: {name}: output {i} does not match onnxruntime's "
                     f"(rtol 1e-3, atol 1e-4; max abs error {err})")
    if runs == 0:
        return
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        outputs_of(fn(*args))
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"median {float(np.median(times)):.4f} ms")


def main(argv):
    if len(argv) == 3 and argv[1] == "compile":
        compile_model(argv[2])
    elif len(argv) == 6 and argv[1] == "iree":
        time_iree(argv[2], argv[3], int(argv[4]), int(argv[5]))
    else:
        sys.exit("usage: iree_peer.py compile MODEL.onnx\n"
                 "       iree_peer.py iree MODEL.onnx DIR THREADS RUNS")


if __name__ == "__main__":
    main(sys.argv)
