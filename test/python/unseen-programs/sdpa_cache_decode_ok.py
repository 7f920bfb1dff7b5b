# label: correct
# why: is_causal only for the prompt (q_len == k_len); a single decoded token attends to the whole cache without a mask
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self):
        self.k = None
        self.v = None

    def update(self, k, v):
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=-2)
            self.v = torch.cat([self.v, v], dim=-2)
        return self.k, self.v


class SelfAttention(nn.Module):
    def __init__(self, d_model=48, heads=3):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, cache):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        k, v = cache.update(k, v)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=q.size(-2) > 1)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


if __name__ == "__main__":
    torch.manual_seed(24)
    emb = nn.Embedding(64, 48)
    layer = SelfAttention()
    head = nn.Linear(48, 64)
    cache = KVCache()
    ids = torch.tensor([[4, 8, 15, 16, 23, 42]])
    with torch.inference_mode():
        logits = head(layer(emb(ids), cache))
        for _ in range(4):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], dim=1)
            logits = head(layer(emb(nxt), cache))
    print(ids)
