"""Attention recorder: runs a Python program unchanged under a torch.overrides.TorchFunctionMode and writes every
attention call it makes (F.scaled_dot_product_attention, nn.MultiheadAttention, hand-written softmax(q @ k^T) @ v)
to a trace folder: trace.json (the index, format "attention-inspector-trace", version TRACE_VERSION) plus one .npy
file per captured tensor.

Stdlib + torch (>= 1.13) only; numpy is used for writing .npy files when it is importable.
Run it as ``python -m attention_recorder --out DIR -- script.py args`` or ``... --pytest NODEID``.
"""

TRACE_FORMAT = "attention-inspector-trace"
TRACE_VERSION = 1
