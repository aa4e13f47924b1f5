"""Damages a library compiled from weights.mlir the ways a disk or a hand
edit can, for library-validation.test (no numpy: only the standard library).

  metadata-offset LIB           prints the byte offset of the metadata JSON
  inflate LIB OUT PARAMS        OUT: LIB whose metadata says __relax_param_0
                                is F32 [99999] (the global holds [16, 32]);
                                PARAMS: a parameter file that agrees with it
  unterminate LIB OUT           OUT: LIB whose metadata string has no NUL
  old-version LIB OUT           OUT: LIB whose metadata says format version 1
                                (dims as text, before shape functions)
  rename-shapes LIB OUT         OUT: LIB whose metadata names a shape
                                function of main that the library lacks
"""
import json
import struct
import sys

METADATA = b'{"format":"relax-mlir module"'


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def replace_once(data, old, new):
    assert len(old) == len(new), "a patch must keep every offset"
    assert data.count(old) == 1, "expected one %r" % old
    return data.replace(old, new)


def safetensors(tensors):
    """tensors: [(name, dtype, shape, bytes)] -> the file's bytes."""
    header, offset = {}, 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-(8 + len(text)) % 64)
    return struct.pack("<Q", len(text)) + text + b"".join(
        t[3] for t in tensors)


def main():
    cmd, lib = sys.argv[1], read(sys.argv[2])
    if cmd == "metadata-offset":
        print(lib.index(METADATA))
    elif cmd == "inflate":
        write(sys.argv[3], replace_once(
            lib, b'"name":"__relax_param_0","shape":[16,32]',
            b'"name":"__relax_param_0","shape":[99999]'))
        write(sys.argv[4], safetensors([
            ("__relax_param_0", "F32", [99999], bytes(4 * 99999)),
            ("__relax_param_1", "F32", [16, 16], bytes(4 * 16 * 16))]))
    elif cmd == "old-version":
        write(sys.argv[3], replace_once(lib, b'"version":2}', b'"version":1}'))
    elif cmd == "rename-shapes":
        write(sys.argv[3], replace_once(
            lib, b'"shape_function":"main__shapes"',
            b'"shape_function":"main__shapez"'))
    elif cmd == "unterminate":
        end = lib.index(b"}\0", lib.index(METADATA)) + 1
        write(sys.argv[3], lib[:end] + b" " + lib[end + 1:])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
