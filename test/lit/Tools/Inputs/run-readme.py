#!/usr/bin/env python3
"""Runs every command of the README's "Try it" block, as a newcomer would
paste them, in a copy of the repository (the files git tracks: what a fresh
clone has) whose build/ is the build under test. A command that fails stops
the run with its output; each is echoed first, so a failure names its line.

Lines that need what this machine lacks are skipped with a note saying
why: --device cuda without a GPU, --relax-lower-to-gpu without the CUDA
toolkit, the ONNX lines without the importer, the mlir-opt plugin in a
sanitizer build. `cmake --install` installs into the work folder instead of
the README's prefix.

usage: run-readme.py --src ROOT --build BUILD --work DIR [--cmake CMAKE]
                     [--gpu] [--cuda-toolkit] [--onnx] [--plugin]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def try_it_commands(readme):
    """The commands of the first ```sh block after the "Try it" heading,
    continuation lines joined."""
    text = open(readme).read()
    heading = re.search(r"^#+ Try it\s*$", text, re.M)
    if not heading:
        sys.exit("run-readme: no 'Try it' heading in %s" % readme)
    block = re.search(r"^```sh\n(.*?)^```", text[heading.end():], re.M | re.S)
    if not block:
        sys.exit("run-readme: no ```sh block after 'Try it'")
    commands, current = [], ""
    for line in block.group(1).splitlines():
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip():
            commands.append(current.strip())
        current = ""
    return commands


def copy_tracked(src, dst):
    """The files of a fresh clone; without git (a source tarball), the
    examples and the README."""
    try:
        files = subprocess.check_output(
            ["git", "-C", src, "ls-files", "-z"],
            stderr=subprocess.DEVNULL).decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        files = []
    files = [f for f in files if f]
    if not files:
        print("note: %s is not a git checkout: copying python-free-examples "
              "and README.md only" % src)
        shutil.copytree(os.path.join(src, "python-free-examples"),
                        os.path.join(dst, "python-free-examples"))
        shutil.copy(os.path.join(src, "README.md"), dst)
        return
    for f in files:
        path = os.path.join(src, f)
        if not os.path.isfile(path):  # deleted but not yet committed
            continue
        os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
        shutil.copy2(path, os.path.join(dst, f))


def skip_reason(cmd, args):
    if "--device cuda" in cmd and not args.gpu:
        return "no CUDA GPU"
    if "lower-to-gpu" in cmd and not args.cuda_toolkit:
        return "no CUDA toolkit (ptxas, libdevice)"
    if not args.onnx and re.search(r"\bmodel\.(onnx|mlir|so)\b", cmd):
        return "this build has no ONNX importer (libonnx)"
    if "--load-dialect-plugin" in cmd and not args.plugin:
        return "no upstream mlir-opt that can load the plugin here"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cmake", default="cmake")
    for flag in ["gpu", "cuda-toolkit", "onnx", "plugin"]:
        parser.add_argument("--" + flag, action="store_true")
    args = parser.parse_args()

    repo = os.path.join(args.work, "repo")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(repo)
    copy_tracked(args.src, repo)
    os.symlink(os.path.abspath(args.build), os.path.join(repo, "build"))

    commands = try_it_commands(os.path.join(repo, "README.md"))
    ran = skipped = 0
    for cmd in commands:
        reason = skip_reason(cmd, args)
        if reason:
            print("SKIP (%s): %s" % (reason, cmd), flush=True)
            skipped += 1
            continue
        run = cmd
        if run.startswith("cmake "):
            prefix = os.path.join(args.work, "prefix")
            run = re.sub(r"--prefix\s+\S+", "--prefix " + prefix, run)
            run = args.cmake + run[len("cmake"):]
        print("RUN: %s" % cmd, flush=True)
        result = subprocess.run(["bash", "-o", "pipefail", "-c", run],
                                cwd=repo, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.stdout.write(result.stdout.decode(errors="replace"))
            print("FAILED (exit %d): %s" % (result.returncode, cmd))
            return 1
        ran += 1
    # The installed tree is the bulk of the work folder (~80 MB).
    shutil.rmtree(os.path.join(args.work, "prefix"), ignore_errors=True)
    print("README Try it: %d commands ran, %d skipped" % (ran, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
