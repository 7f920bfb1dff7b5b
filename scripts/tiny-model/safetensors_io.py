"""The safetensors format by hand (bookworm has no python3-safetensors): an 8-byte little-endian header length,
a JSON header {name: {dtype, shape, data_offsets}} padded with spaces to a multiple of 8, then the raw
little-endian tensor bytes in header order. Written deterministically: names sorted, compact JSON."""

from __future__ import annotations

import json
import struct

import numpy as np

DTYPES = {np.dtype("<f4"): "F32", np.dtype("<i8"): "I64", np.dtype("<i4"): "I32"}
NUMPY_OF = {v: k for k, v in DTYPES.items()}


def dump_safetensors(tensors: dict[str, np.ndarray], metadata: dict[str, str] | None = None) -> bytes:
    header: dict[str, object] = {}
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    chunks: list[bytes] = []
    offset = 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        a = a.astype(a.dtype.newbyteorder("<"), copy=False)
        if a.dtype not in DTYPES:
            raise ValueError(f"{name}: dtype {a.dtype} is not written by this writer")
        raw = a.tobytes()
        header[name] = {"dtype": DTYPES[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=True).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


def load_safetensors(data: bytes) -> dict[str, np.ndarray]:
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(data[base + start : base + end], dtype=NUMPY_OF[info["dtype"]]).reshape(info["shape"]).copy()
    return out
