# label: buggy
# why: greedy decoding with a KV cache builds tril(ones(q_len, k_len)); with one new query against the cache it only sees the first key
import math

import torch
import torch.nn as nn


class CachedAttention(nn.Module):
    def __init__(self, d=32, h=4):
        super().__init__()
        self.h, self.hd = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.hd).transpose(1, 2) for t in (q, k, v))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        q_len, k_len = q.size(2), k.size(2)
        mask = torch.tril(torch.ones(q_len, k_len, dtype=torch.bool))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.hd)
        scores = scores.masked_fill(~mask, float("-inf"))  # expect: ATT008
        attn = scores.softmax(dim=-1)
        y = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.out(y), (k, v)


class TinyDecoder(nn.Module):
    def __init__(self, vocab=50, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = CachedAttention(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, cache=None):
        h, cache = self.attn(self.emb(ids), cache)
        return self.head(h), cache


@torch.no_grad()
def generate(model, prompt, steps):
    logits, cache = model(prompt)
    out = prompt
    for _ in range(steps):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        out = torch.cat([out, nxt], dim=1)
        logits, cache = model(nxt, cache)
    return out


if __name__ == "__main__":
    torch.manual_seed(22)
    model = TinyDecoder()
    print(generate(model, torch.tensor([[3, 14, 15, 9, 2]]), steps=4))
