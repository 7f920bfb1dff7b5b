# case: b10-07-clean
# modelled-on: Eric-is-good/pretrain-LLM-from-scratch https://github.com/Eric-is-good/pretrain-LLM-from-scratch/commit/e35f1ae
# label: correct
# class: clean
# pattern: a packed-sequence keep mask (same sequence index, not padding, lower triangle) built in the SFT collator and turned additive with torch.where(keep, 0, finfo(dtype).min); the model's eager attention adds it to the scores before a float32 softmax
# why: the collator's docstring draws 0 on the allowed block-diagonal causal entries and min_dtype elsewhere, which is what an additive mask must be; finfo(dtype).min of the compute dtype cannot overflow, and the padding rows that are fully masked softmax to a uniform row, not NaN (their loss is ignored)
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/Eric-is-good/pretrain-LLM-from-scratch https://github.com/Eric-is-good/pretrain-LLM-from-scratch/commit/e35f1ae SFT/LLaMA-Factory/src/llamafactory/data/collator.py
from dataclasses import dataclass

import torch


def packed_4d_mask(seq_ids: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """(B, T) sequence indices (0 = padding) -> (B, 1, T, T) additive mask.

    [[1, 1, 2, 2, 0]] ->
        o x x x x
        o o x x x
        x x o x x
        x x o o x
        x x x x x      (o = 0.0, x = finfo(dtype).min)
    """
    _, t = seq_ids.size()
    min_value = torch.finfo(dtype).min
    zero = torch.tensor(0, dtype=dtype)
    not_pad = (seq_ids != 0)[:, None, None, :]
    same_seq = seq_ids[:, None, None, :] == seq_ids[:, None, :, None]
    lower = torch.tril(torch.ones((t, t), dtype=torch.bool))
    keep = same_seq & not_pad & lower
    return torch.where(keep, zero, min_value)


@dataclass
class PackedCollator:
    compute_dtype: torch.dtype = torch.float32
    block_diag_attn: bool = True

    def __call__(self, features):
        batch = {k: torch.stack([torch.as_tensor(f[k]) for f in features]) for k in features[0]}
        if self.block_diag_attn:
            batch["attention_mask"] = packed_4d_mask(batch["attention_mask"], self.compute_dtype)
        return batch
