# case: scale-fzuppichini-vit-fixed
# modelled-on: FrancescoSaverioZuppichini/ViT https://github.com/FrancescoSaverioZuppichini/ViT/issues/2
# label: correct
# pattern: the fixed tutorial block: scaling = (emb_size // num_heads) ** (1/2) and energy is divided by it before F.softmax(dim=-1); the boolean keep mask is inverted with ~ in masked_fill
# why: the per-head scale is applied to the logits; ~mask selects the masked positions
# looks-like: ATT004, ATT002
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    def __init__(self, emb_size: int = 768, num_heads: int = 8, dropout: float = 0.0):
        super().__init__()
        self.emb_size = emb_size
        self.num_heads = num_heads
        self.qkv = nn.Linear(emb_size, emb_size * 3)
        self.att_drop = nn.Dropout(dropout)
        self.projection = nn.Linear(emb_size, emb_size)

    def forward(self, x: Tensor, mask: Tensor = None) -> Tensor:
        qkv = rearrange(self.qkv(x), "b n (h d qkv) -> (qkv) b h n d", h=self.num_heads, qkv=3)
        queries, keys, values = qkv[0], qkv[1], qkv[2]
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        if mask is not None:
            energy = energy.masked_fill(~mask, torch.finfo(energy.dtype).min)
        scaling = (self.emb_size // self.num_heads) ** (1 / 2)
        att = F.softmax(energy / scaling, dim=-1)
        att = self.att_drop(att)
        out = torch.einsum("bhal, bhlv -> bhav ", att, values)
        return self.projection(rearrange(out, "b h n d -> b n (h d)"))
