# case: b42-06-clean
# modelled-on: lucidrains/graph-transformer-pytorch https://github.com/lucidrains/graph-transformer-pytorch/commit/8613d2141c84f1cbaa4e2802e3091638c706c9ca
# label: correct
# class: clean
# pattern: graph transformer layer over node features and dense edge features (batch, n, n, edge_dim): heads are folded into the batch, each edge's projection is added to the key and value of that (i, j) pair, so keys become a (b*h, i, j, d) tensor and the logits are einsum('b i d, b i j d -> b i j') times dim_head ** -0.5 (no transpose, since the keys are already per pair); a boolean node mask (True = real node) becomes a pair mask by an outer AND, is repeated per head, and non-pairs are filled with -finfo(dtype).max before the softmax over j; gated residuals around the attention
# why: correct: with per-pair keys the einsum contracts the feature axis and leaves (query i, key j), so no key transpose is missing; scale is 1/sqrt(dim_head), the width of one head; the pair mask is True only where both nodes are real and ~mask fills the others with the most negative finite value of the logits' dtype, which masks in any float dtype and keeps fully padded rows finite; the softmax runs over j
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/lucidrains/graph-transformer-pytorch https://github.com/lucidrains/graph-transformer-pytorch/commit/8613d2141c84f1cbaa4e2802e3091638c706c9ca graph_transformer_pytorch/graph_transformer_pytorch.py
import torch
from einops import rearrange, repeat
from torch import einsum, nn


class EdgeAwareAttention(nn.Module):
    def __init__(self, dim, edge_dim=None, heads=8, dim_head=64):
        super().__init__()
        edge_dim = dim if edge_dim is None else edge_dim
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.q_lin = nn.Linear(dim, inner)
        self.kv_lin = nn.Linear(dim, inner * 2)
        self.edge_lin = nn.Linear(edge_dim, inner)
        self.out_lin = nn.Linear(inner, dim)

    def forward(self, nodes, edges, node_mask=None):
        h = self.heads
        q = self.q_lin(nodes)
        k, v = self.kv_lin(nodes).chunk(2, dim=-1)
        e = self.edge_lin(edges)
        fold = lambda t: rearrange(t, "b ... (h d) -> (b h) ... d", h=h)
        q, k, v, e = fold(q), fold(k), fold(v), fold(e)

        # every (i, j) pair gets its own key and value
        k = k[:, None] + e
        v = v[:, None] + e
        logits = einsum("b i d, b i j d -> b i j", q, k) * self.scale

        if node_mask is not None:
            pair = node_mask[:, :, None] & node_mask[:, None, :]
            pair = repeat(pair, "b i j -> (b h) i j", h=h)
            logits = logits.masked_fill(~pair, -torch.finfo(logits.dtype).max)

        weights = logits.softmax(dim=-1)
        out = einsum("b i j, b i j d -> b i d", weights, v)
        return self.out_lin(rearrange(out, "(b h) n d -> b n (h d)", h=h))


class Gate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(3 * dim, 1, bias=False), nn.Sigmoid())

    def forward(self, new, old):
        g = self.score(torch.cat((new, old, new - old), dim=-1))
        return new * g + old * (1 - g)


class EdgeGraphEncoder(nn.Module):
    def __init__(self, dim, depth, edge_dim=None, heads=8, dim_head=64):
        super().__init__()
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.attns = nn.ModuleList(EdgeAwareAttention(dim, edge_dim, heads, dim_head) for _ in range(depth))
        self.gates = nn.ModuleList(Gate(dim) for _ in range(depth))

    def forward(self, nodes, edges, node_mask=None):
        for norm, attn, gate in zip(self.norms, self.attns, self.gates):
            nodes = gate(attn(norm(nodes), edges, node_mask=node_mask), nodes)
        return nodes, edges
