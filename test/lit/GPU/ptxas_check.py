"""Extracts the PTX of every gpu.binary in a lowered module and runs ptxas.

Usage: ptxas_check.py MODULE.mlir --arch sm_80 [--ptxas PATH] [--keep DIR]
                      [--count REGEX ...] [--cuobjdump PATH --sass-count REGEX ...]
                      [--sass CUOBJDUMP]

Prints one line per kernel module and a summary line
"ptxas <arch>: N of N modules accepted"; exits 1 when ptxas rejects one or
when the module holds no PTX at all (an empty pass would prove nothing).
With --count, each module's line says how many lines of its PTX match each
regex ("name: ptx shfl.sync=5 bar.sync=1"); with --cuobjdump, ptxas writes
a cubin and the --sass-count regexes are counted in its SASS likewise
("name: sass SHFL.BFLY=10"). With --sass, ptxas also writes each cubin
(with -v: its registers, shared memory and spills are printed) and the
given cuobjdump prints its whole SASS, so a test can check the machine
code (tensor-core and wide load instructions).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# `gpu.binary @name [#gpu.object<..., assembly = "...">]` (format=isa).
BINARY = re.compile(r'gpu\.binary @([\w$.]+)\s.*?assembly = "((?:[^"\\]|\\.)*)"')


def unescape(text):
    """MLIR string attributes escape bytes as \\XX (hex) and \\\\, \\"."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == '\\':
            nxt = text[i + 1]
            if nxt in '\\"':
                out.append(ord(nxt))
                i += 2
                continue
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
            continue
        out += c.encode()
        i += 1
    return out.decode()


def count_lines(text, patterns):
    """'pattern=N ...': how many lines of `text` match each regex."""
    lines = text.splitlines()
    return ' '.join(
        f'{p}={sum(1 for l in lines if re.search(p, l))}' for p in patterns)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('module')
    parser.add_argument('--arch', required=True)
    parser.add_argument('--ptxas', default='ptxas')
    parser.add_argument('--keep', help='also write each PTX file here')
    parser.add_argument('--count', action='append', default=[],
                        help='regex counted per line of each PTX')
    parser.add_argument('--cuobjdump', help='disassemble each cubin with it')
    parser.add_argument('--sass-count', action='append', default=[],
                        help='regex counted per line of each SASS listing')
    parser.add_argument('--sass', metavar='CUOBJDUMP',
                        help='print ptxas -v and the SASS of each module')
    args = parser.parse_args()
    # cuobjdump -sass runs nvdisasm: the one beside it first (the pip
    # wheels' layout), then PATH's.
    tool_env = dict(os.environ)
    objdump = args.cuobjdump or args.sass
    if objdump:
        tool_env['PATH'] = (os.path.dirname(os.path.abspath(objdump)) +
                            os.pathsep + tool_env.get('PATH', ''))
    with open(args.module) as f:
        text = f.read()
    found = BINARY.findall(text)
    if not found:
        print(f'error: no gpu.binary with PTX assembly in {args.module}')
        return 1
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, asm in found:
            ptx = unescape(asm)
            target = re.search(r'^\.target (\S+)', ptx, re.M)
            if not target or target.group(1) != args.arch:
                print(f'{name}: PTX targets {target.group(1) if target else "?"}'
                      f', expected {args.arch}')
                failures += 1
                continue
            path = os.path.join(args.keep or tmp, name + '.ptx')
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
            with open(path, 'w') as f:
                f.write(ptx)
            cubin = path[:-len('.ptx')] + '.cubin'
            verbose = ['-v'] if args.sass else []
            proc = subprocess.run(
                [args.ptxas, f'-arch={args.arch}', *verbose, path, '-o',
                 cubin if args.cuobjdump or args.sass else os.devnull],
                capture_output=True, text=True)
            if proc.returncode != 0:
                failures += 1
                print(f'{name}: REJECTED\n{proc.stderr}')
                continue
            if args.count:
                print(f'{name}: ptx ' + count_lines(ptx, args.count))
            if args.cuobjdump:
                sass = subprocess.run([args.cuobjdump, '-sass', cubin],
                                      capture_output=True, text=True,
                                      check=True, env=tool_env).stdout
                print(f'{name}: sass ' + count_lines(sass, args.sass_count))
            if args.sass:
                print(f'{name}: ptxas -v\n{proc.stdout}{proc.stderr}')
                dump = subprocess.run([args.sass, '-sass', cubin],
                                      capture_output=True, text=True,
                                      env=tool_env)
                print(f'{name}: SASS\n{dump.stdout}{dump.stderr}')
                if dump.returncode != 0:
                    failures += 1
    print(f'ptxas {args.arch}: {len(found) - failures} of {len(found)} '
          f'modules accepted')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
