import torch
from torch import nn

from attention import Attention


class GPT(nn.Module):
    def __init__(self, vocab, d=64, h=4, n=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList([Attention(d, h, causal=True) for _ in range(n)])

    def forward(self, ids, attention_mask=None):
        x = self.emb(ids)
        mask = None
        if attention_mask is not None:
            T = ids.size(1)
            causal = torch.ones(T, T, dtype=torch.bool, device=ids.device).tril()
            mask = causal[None, None] & attention_mask.bool()[:, None, None, :]
        for blk in self.blocks:
            x = x + blk(x, attn_mask=mask)
        return x
