"""Runs a command and prints where its resident memory is at the sampled
peak: /proc/PID/smaps is read every few milliseconds while it runs, and the
sample with the largest total Rss is broken down by mapping, largest first:

    python smaps.py CMD [ARGS...]

Mappings are grouped by file (libLLVM.so.22.1, model.so, ...); an anonymous
writable mapping that directly follows a file's writable (data) mapping is
that file's .bss (the compiled library's weights live there) and is counted as "<file> (bss)";
other anonymous memory is [anon] (malloc's mmap'ed blocks, thread stacks),
and [heap] is the brk heap. (A block that mmap happened to place right
after a library's data is counted as that library's .bss too: read the
(bss) lines of libraries other than the model with that in mind.) The
command's own output is discarded. A sample misses what the process held
for less than the sampling interval.
"""
import collections
import os
import subprocess
import sys
import time


def sample(pid):
    groups = collections.Counter()
    last_name, last_end, last_writable = None, None, False
    try:
        with open(f"/proc/{pid}/smaps") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    name = None
    for line in lines:
        fields = line.split()
        if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
            start, end = (int(x, 16) for x in fields[0].split("-"))
            path = fields[5] if len(fields) >= 6 else ""
            writable = fields[1][1] == "w"
            if path.startswith("/"):
                name = os.path.basename(path)
            elif path:
                name = path
            elif (writable and last_writable and last_end == start and
                  last_name and not last_name.startswith("[") and
                  not last_name.endswith("(bss)")):
                name = last_name + " (bss)"
            else:
                name = "[anon]"
            last_name, last_end, last_writable = name, end, writable
        elif fields[0] == "Rss:":
            groups[name] += int(fields[1])
    return groups


proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
best = collections.Counter()
while proc.poll() is None:
    s = sample(proc.pid)
    if s and sum(s.values()) > sum(best.values()):
        best = s
    time.sleep(0.002)
if proc.returncode != 0:
    sys.exit(f"smaps.py: {' '.join(sys.argv[1:])} failed")
total = sum(best.values())
print(f"total {total / 1024:.1f} MiB")
for name, kib in best.most_common():
    if kib >= 64:
        print(f"{kib / 1024:7.1f} MiB  {name}")
