"""Helpers shared by the programs: a tiny tokenizer-like batcher and an embedding with a padding id."""
import torch
import torch.nn as nn

PAD = 0


def batch_ids(sentences, pad_left=False):
    """Right-padded (or left-padded) id tensor [B, L] from lists of ids."""
    n = max(len(s) for s in sentences)
    rows = [([PAD] * (n - len(s)) + s) if pad_left else (s + [PAD] * (n - len(s))) for s in sentences]
    return torch.tensor(rows)


def padding_mask(ids):
    """True where there is a real token (the tokenizer's attention_mask convention)."""
    return ids != PAD


class Embed(nn.Module):
    def __init__(self, vocab=50, d_model=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model, padding_idx=PAD)

    def forward(self, ids):
        return self.tok(ids)
