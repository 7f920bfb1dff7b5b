# case: softmax-equiformer-mlp-attention-over-neighbours
# modelled-on: lucidrains/equiformer-pytorch https://github.com/lucidrains/equiformer-pytorch/commit/d9e58e437b2f533a762ee9280beb1f3375ceb970
# label: correct
# class: fixed
# pattern: graph MLP attention (no query-key product): a small per-degree MLP maps each (node i, neighbour j) feature to one logit per head, giving (batch, i, j, heads) with the heads last; the logits are scaled per degree, softmaxed, and contracted over the neighbours with an einsum
# why: the fix of commit d9e58e4: softmax(dim=-2) normalises over the j neighbours of each node and head, which is the axis the einsum sums over; the per-head logits come from an MLP, so there is no query-key product to scale beyond the per-degree factor
# looks-like: ATT001, ATT003
# source: https://github.com/lucidrains/equiformer-pytorch https://github.com/lucidrains/equiformer-pytorch/commit/d9e58e437b2f533a762ee9280beb1f3375ceb970 equiformer_pytorch/equiformer_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class MLPGraphAttention(nn.Module):
    def __init__(self, dims, heads, dim_head, attn_hidden=64):
        # dims: feature width per degree; heads: number of heads per degree
        super().__init__()
        self.heads = heads
        self.scale = [h ** -0.5 for h in heads]
        self.to_attn_logits = nn.ModuleList(
            [nn.Sequential(nn.Linear(d, attn_hidden), nn.SiLU(), nn.Linear(attn_hidden, h)) for d, h in zip(dims, heads)]
        )
        self.to_values = nn.ModuleList([nn.Linear(d, h * dim_head) for d, h in zip(dims, heads)])
        self.to_out = nn.ModuleList([nn.Linear(h * dim_head, d) for d, h in zip(dims, heads)])

    def forward(self, edge_features, mask=None):
        # edge_features: per degree, (batch, i nodes, j neighbours, dim); mask: (batch, i, j) bool, True = real neighbour
        attentions = []
        for fn, feats, scale in zip(self.to_attn_logits, edge_features, self.scale):
            attn_logits = fn(feats) * scale  # (batch, i, j, heads)
            if mask is not None:
                attn_logits = attn_logits.masked_fill(~mask[..., None], -torch.finfo(attn_logits.dtype).max)
            attn = attn_logits.softmax(dim=-2)
            attentions.append(attn)

        outputs = []
        for attn, feats, to_v, to_o, h in zip(attentions, edge_features, self.to_values, self.to_out, self.heads):
            value = rearrange(to_v(feats), "b i j (h d) -> b i j h d", h=h)
            out = einsum("b i j h, b i j h d -> b i h d", attn, value)  # sum over the neighbours j
            outputs.append(to_o(rearrange(out, "b i h d -> b i (h d)")))
        return outputs
