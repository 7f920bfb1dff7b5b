# case: t14g-08-transpose
# modelled-on: gianlucagiudice/ViT-from-scratch https://github.com/gianlucagiudice/ViT-from-scratch/commit/ea3b0e60b03414076aa158994e7d892c8356130f
# label: correct
# class: fixed
# pattern: the same fused-QKV ViT attention after its fix: the (B, S, 3, H, D) view is permuted with (2, 3, 0, 1, 4) to (3, H, B, S, D), so q, k and v are (H, B, S, D); the scores are q @ k.transpose(dim0=-1, dim1=-2) / sqrt(head_dim), softmaxed over the last axis, and the (H, B, S, D) output is permuted with (1, 2, 0, 3) to (B, S, H, D) and reshaped to (B, S, H * D)
# why: correct: with the heads moved in front, the keys' last two axes are tokens and head features, so the transpose pairs every query token with every key token within its head, the softmax over the last axis runs over the keys, sqrt(head_dim) is the per-head scale and the output permute restores (B, S, H, D) before the heads are concatenated; what a naive linter could misread: ATT005 (a transpose by keyword of keys whose layout comes from a 5-D permute), ATT001 (the softmax axis after two permutes), ATT004 (a scale computed from a fresh tensor)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/gianlucagiudice/ViT-from-scratch https://github.com/gianlucagiudice/ViT-from-scratch/commit/ea3b0e60b03414076aa158994e7d892c8356130f vit_scratch/models/vit_custom.py
import torch


class MultiHeadAttentionBlock(torch.nn.Module):
    def __init__(self, n_heads: int, latent_dim: int, dropout: float):
        super().__init__()
        self.n_heads = n_heads
        self.latent_dim = latent_dim
        if latent_dim % n_heads != 0:
            raise ValueError(f"Latent dim {latent_dim} not divisible by n_heads {n_heads}")
        self.head_dim = latent_dim // n_heads
        self.qkv = torch.nn.Linear(latent_dim, self.head_dim * n_heads * 3, bias=False)
        self.attn_dropout = torch.nn.Dropout(dropout)
        self.projection = torch.nn.Linear(latent_dim, latent_dim, bias=False)

    def forward(self, x):
        qkv = self.qkv(x)
        qkv = qkv.view(x.shape[0], x.shape[1], 3, self.n_heads, self.head_dim)
        # B x S x 3 x H x D ---> 3 x H x B x S x D
        qkv = qkv.permute(2, 3, 0, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = q @ k.transpose(dim0=-1, dim1=-2)
        attn = attn / torch.sqrt(torch.tensor(self.head_dim))
        attn = torch.softmax(attn, dim=-1)
        attn = attn @ v
        # H x B x S x D ---> B x S x H x D
        attn = attn.permute(1, 2, 0, 3)
        attn = attn.reshape(x.shape[0], x.shape[1], self.n_heads * self.head_dim)
        attn = self.projection(attn)
        return self.attn_dropout(attn)
