"""Writes tensors as NumPy .npy files (format 1.0) without requiring numpy."""

import array
import struct
import sys

import torch

# torch dtype -> (.npy descr, torch dtype the bytes are written in)
_DESCR = {
    torch.float32: ("<f4", torch.float32),
    torch.float64: ("<f8", torch.float64),
    torch.float16: ("<f2", torch.float16),
    torch.bfloat16: ("<f4", torch.float32),  # numpy has no bfloat16: widened (exactly) to float32
    torch.bool: ("|b1", torch.bool),
    torch.uint8: ("|u1", torch.uint8),
    torch.int8: ("|i1", torch.int8),
    torch.int16: ("<i2", torch.int16),
    torch.int32: ("<i4", torch.int32),
    torch.int64: ("<i8", torch.int64),
}


def npy_descr(dtype):
    """The .npy descr a tensor of this dtype is written with, or None when it cannot be written."""
    entry = _DESCR.get(dtype)
    return entry[0] if entry else None


def tensor_bytes(t):
    """Bytes a tensor takes once written (after widening bfloat16)."""
    entry = _DESCR.get(t.dtype)
    if entry is None:
        return 0
    return t.numel() * torch.empty((), dtype=entry[1]).element_size()


def write_npy(path, t):
    """Writes a tensor (any device, any strides) to `path`; returns the number of bytes written."""
    entry = _DESCR.get(t.dtype)
    if entry is None:
        raise TypeError("cannot write tensors of dtype %s" % t.dtype)
    descr, as_dtype = entry
    t = t.detach().to(device="cpu", dtype=as_dtype).contiguous()
    shape = tuple(int(s) for s in t.shape)
    shape_text = "(%s)" % ("".join("%d, " % s for s in shape) if len(shape) != 1 else "%d," % shape[0])
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    # magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of 64, ending in \n
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    data = _raw_bytes(t)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00")
        f.write(struct.pack("<H", len(header)))
        f.write(header.encode("latin-1"))
        f.write(data)
    return 10 + len(header) + len(data)


def _raw_bytes(t):
    try:
        return t.numpy().tobytes()
    except Exception:  # no numpy: go through Python lists (slow but exact)
        pass
    flat = t.reshape(-1)
    if t.dtype == torch.bool:
        return bytes(1 if v else 0 for v in flat.tolist())
    if t.dtype == torch.float16:
        return b"".join(struct.pack("<e", v) for v in flat.tolist())
    code = {torch.float32: "f", torch.float64: "d", torch.uint8: "B", torch.int8: "b", torch.int16: "h",
            torch.int32: "i", torch.int64: "q"}[t.dtype]
    values = array.array(code, flat.tolist())
    if sys.byteorder != "little":
        values.byteswap()
    return values.tobytes()
