# case: b61-08-clean
# modelled-on: lucidrains/molecule-attention-transformer https://github.com/lucidrains/molecule-attention-transformer/commit/11a707fe71c263087bb6d410582a8300b0270fc2
# label: correct
# class: clean
# pattern: the attention of a Molecule Attention Transformer: atoms of padded molecules with a boolean atom mask (True = real atom), a pairwise keep mask built as the outer product of the atom mask, scores filled with `-finfo(dtype).max` where the pair is not kept, a softmax over the neighbour atoms, and then, after the softmax, the weights scaled by lambda_a and summed with lambda_g times the (masked) adjacency matrix and lambda_d times a kernel of the (masked) distance matrix, whose padded entries are set to `+finfo.max` so that `exp(-d)` is 0 there
# why: correct: this is the paper's attention, softmax(QK^T / sqrt(d)) * lambda_a + lambda_d * g(D) + lambda_g * A; the post-softmax sum is the model, not a mask applied after the softmax (the masks were applied before the softmax and to A and D themselves); the keep mask is inverted once for `masked_fill`; -finfo.max is finite in every dtype, so a padded atom's fully masked row becomes uniform rather than NaN and is averaged with real atoms only through the model's own pooling; the scale is dim_head ** -0.5 and the einsum contracts the head feature axis, so no transpose is needed
# looks-like: ATT002, ATT005, ATT006, ATT007
# source: https://github.com/lucidrains/molecule-attention-transformer https://github.com/lucidrains/molecule-attention-transformer/commit/11a707fe71c263087bb6d410582a8300b0270fc2 molecule_attention_transformer/molecule_attention_transformer.py
import torch
from einops import rearrange
from torch import einsum, nn

DISTANCE_KERNELS = {
    "exp": (lambda d: torch.exp(-d), lambda t: torch.finfo(t.dtype).max),
    "softmax": (lambda d: torch.softmax(d, dim=-1), lambda t: -torch.finfo(t.dtype).max),
}


class MoleculeAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, lam_attn=1.0, lam_dist=0.5, lam_adj=0.5, kernel="exp"):
        super().__init__()
        if kernel not in DISTANCE_KERNELS:
            raise ValueError(f"unknown distance kernel {kernel}")
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.qkv = nn.Linear(dim, 3 * inner, bias=False)
        self.out = nn.Linear(inner, dim)
        self.lam_attn, self.lam_dist, self.lam_adj = lam_attn, lam_dist, lam_adj
        self.kernel, self.kernel_fill = DISTANCE_KERNELS[kernel]

    def forward(self, atoms, atom_mask=None, adjacency=None, distances=None):
        q, k, v = rearrange(self.qkv(atoms), "b n (h t d) -> b h n t d", h=self.heads, t=3).unbind(dim=-2)
        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale

        adj = None if adjacency is None else rearrange(adjacency, "b i j -> b 1 i j")
        dist = None if distances is None else rearrange(distances, "b i j -> b 1 i j")

        if atom_mask is not None:
            pair = atom_mask[:, None, :, None] & atom_mask[:, None, None, :]
            sim = sim.masked_fill(~pair, -torch.finfo(sim.dtype).max)
            if dist is not None:
                dist = dist.masked_fill(~pair, self.kernel_fill(sim))
            if adj is not None:
                adj = adj.masked_fill(~pair, 0.0)

        weights = sim.softmax(dim=-1) * self.lam_attn
        if adj is not None:
            weights = weights + self.lam_adj * adj
        if dist is not None:
            weights = weights + self.lam_dist * self.kernel(dist)

        mixed = einsum("b h i j, b h j d -> b h i d", weights, v)
        return self.out(rearrange(mixed, "b h n d -> b n (h d)"))


class PropertyHead(nn.Module):
    def __init__(self, dim_in, dim, dim_out, depth, **attn_kwargs):
        super().__init__()
        self.embed = nn.Linear(dim_in, dim)
        self.layers = nn.ModuleList(
            nn.ModuleList([nn.LayerNorm(dim), MoleculeAttention(dim, **attn_kwargs), nn.LayerNorm(dim),
                           nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))])
            for _ in range(depth)
        )
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim_out))

    def forward(self, atoms, atom_mask=None, adjacency=None, distances=None):
        x = self.embed(atoms)
        for n1, attn, n2, ff in self.layers:
            x = x + attn(n1(x), atom_mask=atom_mask, adjacency=adjacency, distances=distances)
            x = x + ff(n2(x))
        return self.head(x.mean(dim=-2))
