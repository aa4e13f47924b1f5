#!/usr/bin/env bash
# Runs one relax-run command line both ways: as relax-run runs a library
# itself (without LLVM), and through its compiler side, libRelaxRunJIT.so
# (RELAX_RUN_FORCE_JIT=1, the path every library run took before). Fails
# unless stdout, stderr, both in one file (how they interleave) and the exit
# status are identical; prints the light run's stdout, stderr (on stdout)
# and status for FileCheck.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$@" > "$dir/light.out" 2> "$dir/light.err"
light=$?
RELAX_RUN_FORCE_JIT=1 "$@" > "$dir/jit.out" 2> "$dir/jit.err"
jit=$?
"$@" > "$dir/light.both" 2>&1
RELAX_RUN_FORCE_JIT=1 "$@" > "$dir/jit.both" 2>&1
status=0
diff -u "$dir/jit.both" "$dir/light.both" || status=1
diff -u "$dir/jit.out" "$dir/light.out" || status=1
diff -u "$dir/jit.err" "$dir/light.err" || status=1
if [ "$light" != "$jit" ]; then
  echo "light-vs-jit: exit status $light, the compiler side's $jit"
  status=1
fi
cat "$dir/light.out" "$dir/light.err"
echo "exit $light"
exit $status
