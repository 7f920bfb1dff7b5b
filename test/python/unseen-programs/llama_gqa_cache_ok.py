# label: correct
# why: a Llama-style layer (RoPE, grouped-query heads via repeat_interleave) with a KV cache; the prompt uses a causal mask, decoding steps use none
import math

import torch
import torch.nn as nn


def rope(x, pos, base=10000.0):
    # x: [B, H, T, D]
    d = x.size(-1)
    inv = 1.0 / base ** (torch.arange(0, d, 2).float() / d)
    ang = pos[:, None].float() * inv[None, :]  # [T, D/2]
    cos, sin = ang.cos(), ang.sin()
    x1, x2 = x[..., ::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class LlamaAttention(nn.Module):
    def __init__(self, dim=64, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.n_heads, self.n_kv = n_heads, n_kv_heads
        self.hd = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.hd, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.hd, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.hd, bias=False)
        self.wo = nn.Linear(n_heads * self.hd, dim, bias=False)

    def forward(self, x, start_pos, cache):
        B, T, _ = x.shape
        pos = torch.arange(start_pos, start_pos + T)
        q = rope(self.wq(x).view(B, T, self.n_heads, self.hd).transpose(1, 2), pos)
        k = rope(self.wk(x).view(B, T, self.n_kv, self.hd).transpose(1, 2), pos)
        v = self.wv(x).view(B, T, self.n_kv, self.hd).transpose(1, 2)
        if cache:
            k = torch.cat([cache["k"], k], dim=2)
            v = torch.cat([cache["v"], v], dim=2)
        cache["k"], cache["v"] = k, v
        rep = self.n_heads // self.n_kv
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.hd)
        if T > 1:
            mask = torch.full((T, T), float("-inf")).triu(1)
            scores = scores + mask
        probs = torch.softmax(scores.float(), dim=-1).type_as(q)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(B, T, -1)
        return self.wo(out)


if __name__ == "__main__":
    torch.manual_seed(31)
    emb = nn.Embedding(128, 64)
    attn = LlamaAttention()
    head = nn.Linear(64, 128, bias=False)
    cache = {}
    prompt = torch.tensor([[1, 450, 4996, 1701]]) % 128
    with torch.no_grad():
        logits = head(attn(emb(prompt), 0, cache))
        pos = prompt.size(1)
        for _ in range(3):
            nxt = logits[:, -1:].argmax(-1)
            logits = head(attn(emb(nxt), pos, cache))
            pos += 1
            print(int(nxt))
