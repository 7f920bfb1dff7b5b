# label: buggy
# why: is_causal=True on every step, including one-token decoding against the cache (top-left alignment: the new token sees only the first key)
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim=64, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.cache_k = None
        self.cache_v = None

    def forward(self, x):
        bsz, seqlen, dim = x.shape
        hd = dim // self.n_heads
        q = self.wq(x).view(bsz, seqlen, self.n_heads, hd).transpose(1, 2)
        k = self.wk(x).view(bsz, seqlen, self.n_heads, hd).transpose(1, 2)
        v = self.wv(x).view(bsz, seqlen, self.n_heads, hd).transpose(1, 2)
        if self.cache_k is not None:
            k = torch.cat([self.cache_k, k], dim=2)
            v = torch.cat([self.cache_v, v], dim=2)
        self.cache_k, self.cache_v = k, v
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # expect: ATT008
        return self.wo(out.transpose(1, 2).reshape(bsz, seqlen, dim))


if __name__ == "__main__":
    torch.manual_seed(23)
    emb = nn.Embedding(100, 64)
    attn = Attention()
    lm_head = nn.Linear(64, 100)
    tokens = torch.tensor([[1, 17, 42, 8, 99, 23]])
    with torch.no_grad():
        logits = lm_head(attn(emb(tokens)))
        for _ in range(3):
            nxt = logits[:, -1:].argmax(-1)
            tokens = torch.cat([tokens, nxt], dim=1)
            logits = lm_head(attn(emb(nxt)))
    print(tokens.tolist())
