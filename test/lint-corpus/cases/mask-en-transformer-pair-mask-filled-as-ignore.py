# case: mask-en-transformer-pair-mask-filled-as-ignore
# modelled-on: lucidrains/En-transformer https://github.com/lucidrains/En-transformer/commit/2a279568aee65464c3b29fc032811c0073d069db
# label: buggy
# pattern: E(n)-equivariant attention where the scores come from an MLP over edge features (b, h, i, j); the node mask (True at real nodes) becomes a pair mask q_mask * k_mask, which fills both the coordinate weights and the attention logits without being inverted
# why: masked_fill hides the positions where the mask is True, i.e. every pair of real nodes, so each node attends only to padding pairs; the coordinate update is zeroed for real pairs too
import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from einops.layers.torch import Rearrange
from torch import einsum, nn


def exists(val):
    return val is not None


class EquivariantAttention(nn.Module):
    def __init__(self, *, dim, dim_head=64, heads=4, m_dim=16, init_eps=1e-3):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)
        edge_input_dim = dim_head * 2 + 1
        self.edge_mlp = nn.Sequential(nn.Linear(edge_input_dim, edge_input_dim * 2), nn.ReLU(), nn.Linear(edge_input_dim * 2, m_dim), nn.ReLU())
        self.to_attn_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1), Rearrange("... () -> ..."))
        self.coors_mlp = nn.Sequential(nn.Linear(m_dim, m_dim * 4), nn.ReLU(), nn.Linear(m_dim * 4, 1), Rearrange("... () -> ..."))
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=init_eps)

    def forward(self, feats, coors, mask=None):
        b, n, _, h = *feats.shape, self.heads
        rel_coors = rearrange(coors, "b i d -> b i () d") - rearrange(coors, "b j d -> b () j d")  # (b, i, j, 3)
        rel_dist = repeat((rel_coors ** 2).sum(dim=-1, keepdim=True), "b i j d -> b h i j d", h=h)

        q, k, v = self.to_qkv(feats).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=h), (q, k, v))

        if exists(mask):
            q_mask = rearrange(mask, "b i -> b () i ()")
            k_mask = rearrange(mask, "b j -> b () () j")
            mask = q_mask * k_mask  # (b, 1, i, j)

        edge_input = torch.cat((repeat(q, "b h i d -> b h i n d", n=n), repeat(k, "b h j d -> b h n j d", n=n), rel_dist), dim=-1)
        m_ij = self.edge_mlp(edge_input)  # (b, h, i, j, m)

        coor_weights = self.coors_mlp(m_ij)  # (b, h, i, j)
        if exists(mask):
            coor_weights.masked_fill_(mask, 0.0)
        coors_out = einsum("b h i j, b i j c -> b i c", coor_weights, F.normalize(rel_coors, dim=-1))

        sim = self.to_attn_mlp(m_ij)  # (b, h, i, j)
        if exists(mask):
            max_neg_value = -torch.finfo(sim.dtype).max
            sim.masked_fill_(mask, max_neg_value)  # expect: ATT002
        attn = sim.softmax(dim=-1)

        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out), coors + coors_out


def example():
    layer = EquivariantAttention(dim=32)
    feats, coors = torch.randn(1, 16, 32), torch.randn(1, 16, 3)
    mask = torch.ones(1, 16).bool()
    return layer(feats, coors, mask=mask)
