# label: buggy
# why: verifying 3 draft tokens against a 6-token cache uses tril(ones(3, 9)): top-left alignment hides most of the cache from the drafts
import torch
import torch.nn as nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d=24, heads=3):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, cache):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        if cache:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        causal = torch.tril(torch.ones(T, k.size(2))).bool()
        scores = (q @ k.transpose(-2, -1)) / self.hd ** 0.5
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))  # expect: ATT008
        out = scores.softmax(-1) @ v
        return out.transpose(1, 2).reshape(B, T, D), (k, v)


def test_verify_draft_tokens():
    torch.manual_seed(46)
    emb = nn.Embedding(32, 24)
    attn = CachedSelfAttention()
    prompt = torch.tensor([[3, 9, 27, 17, 19, 25]])
    with torch.no_grad():
        _, cache = attn(emb(prompt), None)
        draft = torch.tensor([[8, 24, 8]])
        out, cache = attn(emb(draft), cache)
    assert out.shape == (1, 3, 24)
    assert cache[0].shape[2] == 9
