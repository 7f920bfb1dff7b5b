import torch
import torch.nn as nn


class VerifyAttention(nn.Module):
    """Verify K draft tokens at once against a cache: bottom-right causal."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, draft_hidden, cache_k, cache_v):
        B, K, C = draft_hidden.shape
        q, k, v = self.qkv(draft_hidden).view(B, K, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        k = torch.cat([cache_k, k], dim=2)
        v = torch.cat([cache_v, v], dim=2)
        P = cache_k.shape[2]
        mask = torch.full((K, P + K), float("-inf"), device=q.device)
        mask = torch.triu(mask, diagonal=P + 1)
        scores = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5) + mask
        w = scores.softmax(-1)
        return (w @ v).transpose(1, 2).reshape(B, K, C)
