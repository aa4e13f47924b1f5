"""Runs a command and prints its peak resident set size: 'maxrss N KiB'
(the child's ru_maxrss from wait4). The command's own output is discarded.

    python maxrss.py CMD [ARGS...]
"""
import os
import subprocess
import sys

proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"maxrss.py: {' '.join(sys.argv[1:])} failed")
print(f"maxrss {usage.ru_maxrss} KiB")
