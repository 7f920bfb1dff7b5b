# case: scale-fzuppichini-vit-after-softmax
# modelled-on: FrancescoSaverioZuppichini/ViT https://github.com/FrancescoSaverioZuppichini/ViT/issues/2
# label: buggy
# pattern: ViT tutorial: the scaling is emb_size ** (1/2) (issue #1: model width, not head size) and it is applied after the softmax (issue #2)
# why: dividing probabilities by a constant after softmax does not sharpen or flatten anything and makes rows sum to 1/sqrt(emb_size); and emb_size is the model width, not the head dimension (both show on the line that applies the scaling)
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
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)  # (batch, heads, query_len, key_len)
        if mask is not None:
            fill_value = torch.finfo(torch.float32).min
            energy = energy.masked_fill(~mask, fill_value)
        scaling = self.emb_size ** (1 / 2)
        att = F.softmax(energy, dim=-1) / scaling  # expect: ATT004
        att = self.att_drop(att)
        out = torch.einsum("bhal, bhlv -> bhav ", att, values)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.projection(out)
