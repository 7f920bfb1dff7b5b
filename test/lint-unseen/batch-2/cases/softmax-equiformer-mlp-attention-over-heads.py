# case: softmax-equiformer-mlp-attention-over-heads
# modelled-on: lucidrains/equiformer-pytorch https://github.com/lucidrains/equiformer-pytorch/commit/d9e58e437b2f533a762ee9280beb1f3375ceb970
# label: buggy
# class: real-bug
# pattern: graph MLP attention (no query-key product): a small per-degree MLP maps each (node i, neighbour j) feature to one logit per head, giving (batch, i, j, heads) with the heads last; the logits are scaled per degree, softmaxed, and contracted over the neighbours with an einsum
# why: the softmax runs over the trailing heads axis, so each neighbour's weights sum to 1 across heads and the neighbours are never normalised; the einsum sums over j as if they were; fixed in commit d9e58e4 ("fix a bug with mlp attention (attending on wrong dimension)") with softmax(dim=-2), the comment giving the layout
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
            attn = attn_logits.softmax(dim=-1)  # expect: ATT001
            attentions.append(attn)

        outputs = []
        for attn, feats, to_v, to_o, h in zip(attentions, edge_features, self.to_values, self.to_out, self.heads):
            value = rearrange(to_v(feats), "b i j (h d) -> b i j h d", h=h)
            out = einsum("b i j h, b i j h d -> b i h d", attn, value)  # sum over the neighbours j
            outputs.append(to_o(rearrange(out, "b i h d -> b i (h d)")))
        return outputs
