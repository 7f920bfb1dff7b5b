import numpy as np
import torch

from .tokens import pack_report


def to_tensors(rows, tokenizer):
    """Stacks the financial panels and the packed report text of every firm-year."""
    out = {
        "annual": torch.tensor(np.asarray([r["annual"] for r in rows], dtype=np.float32)),
        "quarterly": torch.tensor(np.asarray([r["quarterly"] for r in rows], dtype=np.float32)),
        "labels": torch.tensor([float(r["label"]) for r in rows]),
    }
    packed = [pack_report(tokenizer, r["sections"]) for r in rows]
    for key in ("input_ids", "attention_mask"):
        out[key] = torch.tensor([p[key] for p in packed], dtype=torch.long)
    return out


def minibatches(tensors, index, size):
    for start in range(0, len(index), size):
        pick = index[start : start + size]
        yield {k: v[pick] for k, v in tensors.items()}
