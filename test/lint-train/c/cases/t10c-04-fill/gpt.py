# case: t10c-04-fill
# modelled-on: adarshLabs/Transformer-From-Scratch https://github.com/adarshLabs/Transformer-From-Scratch/commit/059c596
# label: correct
# class: fixed
# pattern: the padding keep mask covers only the key positions ((B, 1, 1, S)), combined with a lower-triangular causal mask; the attention module fills 0 entries with -inf
# why: the code after commit 059c596 ("Fix GPT2 padding mask"): with right padding every query row keeps at least key 0, so no row is all -inf
# looks-like: ATT002, ATT007
# source: https://github.com/adarshLabs/Transformer-From-Scratch https://github.com/adarshLabs/Transformer-From-Scratch/commit/059c596 attention/masking.py
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from attention.masking import causal_mask, combine, padding_mask
from attention.sdpa import SelfAttention


@dataclass
class GPTConfig:
    n_layers: int = 4
    n_heads: int = 6
    d_model: int = 384
    vocab_size: int = 50257
    block_size: int = 256
    pad_id: int = 0


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.d_model)
        self.attn = SelfAttention(cfg.d_model, cfg.n_heads)
        self.ln2 = nn.LayerNorm(cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(), nn.Linear(4 * cfg.d_model, cfg.d_model))

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask=mask)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.head.weight = self.tok.weight

    def build_mask(self, input_ids):
        _, s = input_ids.shape
        return combine(causal_mask(s, input_ids.device), padding_mask(input_ids, self.cfg.pad_id))

    def forward(self, input_ids, targets=None):
        x = self.tok(input_ids)
        mask = self.build_mask(input_ids)
        for block in self.blocks:
            x = block(x, mask)
        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


if __name__ == "__main__":
    model = GPT(GPTConfig())
    ids = torch.randint(1, 50257, (2, 16))
    ids[0, -3:] = 0  # right padding
    logits, _ = model(ids)
    print(torch.isnan(logits).any())
