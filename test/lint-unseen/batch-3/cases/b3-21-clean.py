# case: b3-21-clean
# modelled-on: lucidrains/point-transformer-pytorch https://github.com/lucidrains/point-transformer-pytorch/commit/a0a56d86f86f04a6e60392822f2aa5a839ecfa15
# label: correct
# class: clean
# pattern: point-cloud vector attention: the attention MLP maps q_i - k_j plus a relative-position embedding to a (b, i, j, d) tensor, one weight per feature channel; the neighbours are optionally cut to the k nearest with topk over distances (masked points pushed to +max), the scores are filled with -max at masked pairs, and the softmax runs over dim=-2, the neighbour axis j
# why: vector attention (Point Transformer) normalises each channel over the neighbours, so the key axis is the second-to-last one and the last axis holds the channels (the commit switched from one weight per pair to one per channel and moved the softmax to dim=-2); no dot product, so no 1/sqrt(d); the mask is a keep mask (mask_i * mask_j) filled where ~mask
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/lucidrains/point-transformer-pytorch https://github.com/lucidrains/point-transformer-pytorch/commit/a0a56d86f86f04a6e60392822f2aa5a839ecfa15 point_transformer_pytorch/point_transformer_pytorch.py
import torch
from einops import repeat
from torch import einsum, nn


def max_value(t):
    return torch.finfo(t.dtype).max


def gather_neighbours(values, indices):
    """values (b, i, j, ...) and indices (b, i, k) -> (b, i, k, ...)."""
    extra = values.shape[3:]
    idx = indices[(..., *((None,) * len(extra)))].expand(*indices.shape, *extra)
    return values.gather(2, idx)


class PointTransformerLayer(nn.Module):
    def __init__(self, *, dim, pos_mlp_hidden_dim=64, attn_mlp_hidden_mult=4, num_neighbors=None):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.pos_mlp = nn.Sequential(nn.Linear(3, pos_mlp_hidden_dim), nn.ReLU(), nn.Linear(pos_mlp_hidden_dim, dim))
        self.attn_mlp = nn.Sequential(nn.Linear(dim, dim * attn_mlp_hidden_mult), nn.ReLU(), nn.Linear(dim * attn_mlp_hidden_mult, dim))

    def forward(self, x, pos, mask=None):
        n, num_neighbors = x.shape[1], self.num_neighbors
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)

        rel_pos = pos[:, :, None, :] - pos[:, None, :, :]
        rel_pos_emb = self.pos_mlp(rel_pos)
        # subtraction of keys from queries instead of a dot product
        qk_rel = q[:, :, None, :] - k[:, None, :, :]

        if mask is not None:
            mask = mask[:, :, None] * mask[:, None, :]

        v = repeat(v, "b j d -> b i j d", i=n)

        if num_neighbors is not None and num_neighbors < n:
            rel_dist = rel_pos.norm(dim=-1)
            if mask is not None:
                rel_dist.masked_fill_(~mask, max_value(rel_dist))
            dist, indices = rel_dist.topk(num_neighbors, largest=False)
            v = gather_neighbours(v, indices)
            qk_rel = gather_neighbours(qk_rel, indices)
            rel_pos_emb = gather_neighbours(rel_pos_emb, indices)
            mask = gather_neighbours(mask, indices) if mask is not None else None

        v = v + rel_pos_emb
        sim = self.attn_mlp(qk_rel + rel_pos_emb)  # (b, i, j, d)

        if mask is not None:
            sim.masked_fill_(~mask[..., None], -max_value(sim))

        attn = sim.softmax(dim=-2)
        return einsum("b i j d, b i j d -> b i d", attn, v)
