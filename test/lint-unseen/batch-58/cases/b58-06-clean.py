# case: b58-06-clean
# modelled-on: razzgrape/chemical-set-transformer https://github.com/razzgrape/chemical-set-transformer/commit/3cef02b7c5dc412e37d10db99ae6024e3ae8d235
# label: correct
# class: clean
# pattern: a pre-norm Set Transformer predicting two properties (viscosity, oxidation) of a lubricant blend from its padded list of components: multi-head attention fills -inf where `~mask` holds (mask is (batch, n) booleans, broadcast to (batch, 1, 1, n)), the hidden states are multiplied by the float mask between blocks, and seed vectors pool the components by attention with the same mask
# why: correct: the dataset marks real components True (padding False), so `~mask` puts -inf on the padded keys only; every blend has at least one component, so no key row is fully masked; multiplying the hidden states by the mask zeroes padded rows of the residual stream and is not applied to attention weights, so it changes no distribution; the scale is sqrt of the per-head width
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/razzgrape/chemical-set-transformer https://github.com/razzgrape/chemical-set-transformer/commit/3cef02b7c5dc412e37d10db99ae6024e3ae8d235 src/models/set_transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedMHA(nn.Module):
    def __init__(self, width, heads, p=0.1):
        super().__init__()
        self.dh, self.heads = width // heads, heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(width, width) for _ in range(4))
        self.drop = nn.Dropout(p)

    def forward(self, xq, xkv, mask=None):
        b, nq, _ = xq.shape
        nk = xkv.shape[1]
        q = self.wq(xq).view(b, nq, self.heads, self.dh).transpose(1, 2)
        k = self.wk(xkv).view(b, nk, self.heads, self.dh).transpose(1, 2)
        v = self.wv(xkv).view(b, nk, self.heads, self.dh).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh)
        if mask is not None:
            scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = self.drop(F.softmax(scores, dim=-1))
        return self.wo((attn @ v).transpose(1, 2).reshape(b, nq, -1)), attn


class PreNormSAB(nn.Module):
    def __init__(self, width, heads, ff, p=0.1):
        super().__init__()
        self.mha = MaskedMHA(width, heads, p)
        self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff), nn.GELU(), nn.Dropout(p), nn.Linear(ff, width), nn.Dropout(p))

    def forward(self, x, mask=None):
        h = self.ln1(x)
        x = x + self.mha(h, h, mask)[0]
        return x + self.ff(self.ln2(x))


class SeedPool(nn.Module):
    def __init__(self, width, heads, n_seeds, p=0.1):
        super().__init__()
        self.seeds = nn.Parameter(torch.randn(1, n_seeds, width) * 0.01)
        self.mha = MaskedMHA(width, heads, p)
        self.ln = nn.LayerNorm(width)

    def forward(self, z, mask=None):
        s = self.seeds.expand(z.size(0), -1, -1)
        return s + self.mha(self.ln(s), self.ln(z), mask)[0]


class BlendRegressor(nn.Module):
    def __init__(self, n_feat, n_components, width=32, heads=4, depth=2, ff=64, n_seeds=3, n_global=4):
        super().__init__()
        self.comp_emb = nn.Embedding(n_components + 1, 8, padding_idx=0)
        self.lift = nn.Sequential(nn.Linear(n_feat + 8, width), nn.LayerNorm(width), nn.GELU())
        self.sabs = nn.ModuleList(PreNormSAB(width, heads, ff) for _ in range(depth))
        self.pool = SeedPool(width, heads, n_seeds)
        joint = width * n_seeds + n_global
        self.visc = nn.Sequential(nn.Linear(joint, width), nn.GELU(), nn.Linear(width, 1))
        self.oxid = nn.Sequential(nn.Linear(joint, width), nn.GELU(), nn.Linear(width, 1))

    def forward(self, feats, comp_ids, global_feats, mask=None):
        h = self.lift(torch.cat([feats, self.comp_emb(comp_ids)], dim=-1))
        keep = mask.unsqueeze(-1).float() if mask is not None else None
        if keep is not None:
            h = h * keep
        for sab in self.sabs:
            h = sab(h, mask)
            if keep is not None:
                h = h * keep
        pooled = self.pool(h, mask).flatten(1)
        joint = torch.cat([pooled, global_feats], dim=-1)
        return torch.cat([self.visc(joint), self.oxid(joint)], dim=-1)
