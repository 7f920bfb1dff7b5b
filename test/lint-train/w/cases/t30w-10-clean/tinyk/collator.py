"""Pretraining batches: right padding, labels -100 on the padding."""
from typing import Any

import torch


class PretrainCollator:
    def __init__(self, tokenizer, max_seq_len: int) -> None:
        self.pad_token_id = tokenizer.pad_token_id
        self.max_seq_len = max_seq_len

    def __call__(self, batch: list[dict[str, Any]]) -> dict[str, torch.Tensor]:
        seqs = [x["input_ids"] for x in batch if x["input_ids"] is not None]
        width = min(max(len(s) for s in seqs), self.max_seq_len)
        ids, labels, keep = [], [], []
        for s in seqs:
            pad = max(width - len(s), 0)
            ids.append((s + [self.pad_token_id] * pad)[:width])
            labels.append((s + [-100] * pad)[:width])
            keep.append(([1] * len(s) + [0] * pad)[:width])
        return {
            "input_ids": torch.tensor(ids, dtype=torch.long),
            "attention_mask": torch.tensor(keep, dtype=torch.long),  # 1 = token; the causal model does not need it
            "labels": torch.tensor(labels, dtype=torch.long),
        }
