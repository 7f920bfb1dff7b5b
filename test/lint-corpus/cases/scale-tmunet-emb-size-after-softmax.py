# case: scale-tmunet-emb-size-after-softmax
# modelled-on: rezazad68/TMUnet https://github.com/rezazad68/TMUnet/issues/13
# label: buggy
# pattern: packed qkv split by einops with the (h d qkv) factor order, einsum scores over named axes, the scale built from the full embedding width and applied to the softmax output
# why: the reference (Attention Is All You Need, and the ViT code this was adapted from) divides the per-head scores by sqrt(emb_size // num_heads) before the softmax; here the divisor is sqrt(emb_size) and it divides the probabilities, so each row sums to 1/sqrt(emb_size) and the logits are never tempered
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import Tensor, nn


class SegmentAttention(nn.Module):
    def __init__(self, emb_size: int = 1024, num_heads: int = 8, dropout: float = 0.0):
        super().__init__()
        self.emb_size = emb_size
        self.num_heads = num_heads
        self.qkv = nn.Linear(emb_size, emb_size * 3)
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(emb_size, emb_size)

    def forward(self, tokens: Tensor) -> Tensor:
        # tokens: (batch, patches, emb_size)
        packed = rearrange(self.qkv(tokens), "b n (h d qkv) -> (qkv) b h n d", h=self.num_heads, qkv=3)
        queries, keys, values = packed[0], packed[1], packed[2]
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)  # (b, h, q, k)
        divisor = self.emb_size ** (1 / 2)
        weights = F.softmax(energy, dim=-1) / divisor  # expect: ATT004
        weights = self.drop(weights)
        mixed = torch.einsum("bhal, bhlv -> bhav", weights, values)
        return self.out(rearrange(mixed, "b h n d -> b n (h d)"))
