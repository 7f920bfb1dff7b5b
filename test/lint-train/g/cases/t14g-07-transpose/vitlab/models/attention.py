# case: t14g-07-transpose
# modelled-on: gianlucagiudice/ViT-from-scratch https://github.com/gianlucagiudice/ViT-from-scratch/commit/828cf28d1a1bb788e7c9b76a6cf3e5ab29c272a4
# label: buggy
# class: real-bug
# pattern: a ViT for CIFAR written from scratch, its per-head attention modules replaced by one fused QKV projection (":zap: Optimize attention mechanism performance"): the (B, S, 3 * H * D) projection is viewed as (B, S, 3, H, D) and permuted with (2, 0, 1, 3, 4), q, k and v are indexed out, the scores are q @ k.transpose(dim0=-1, dim1=-2) divided by sqrt(head_dim) and softmaxed over the last axis, and the output is viewed back to (B, S, H * D); the encoder layers are built from a config dataclass in other modules
# why: buggy: the permute (2, 0, 1, 3, 4) leaves q, k and v as (B, S, H, D), with the heads after the tokens, so transposing the keys' last two axes gives (B, S, D, H) and q @ k^T is (B, S, H, H): each token's heads attend to each other and no token ever attends to another; the author's next commit (":bug: Fix attention mechanism", ea3b0e6) permutes to (3, H, B, S, D) so that the keys are (H, B, S, D) and the same transpose pairs tokens with tokens, and permutes the output back
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
        # multi-head Q, K, V
        qkv = qkv.view(x.shape[0], x.shape[1], 3, self.n_heads, self.head_dim).permute(2, 0, 1, 3, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = q @ k.transpose(dim0=-1, dim1=-2)  # expect: ATT005
        attn = attn / torch.sqrt(torch.tensor(self.head_dim))
        attn = torch.softmax(attn, dim=-1)
        attn = attn @ v
        # concatenate the heads
        attn = attn.view(x.shape[0], x.shape[1], self.n_heads * self.head_dim)
        attn = self.projection(attn)
        return self.attn_dropout(attn)
