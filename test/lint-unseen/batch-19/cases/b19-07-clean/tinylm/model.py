import torch
import torch.nn as nn
import torch.nn.functional as F

from .attention import GroupedQueryAttention


class Block(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads, max_len):
        super().__init__()
        self.norm1 = nn.RMSNorm(d_model)
        self.norm2 = nn.RMSNorm(d_model)
        self.attn = GroupedQueryAttention(d_model, num_heads, num_kv_heads, max_len)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, past_kv=None, use_cache=False):
        a, present = self.attn(self.norm1(x), past_kv, use_cache)
        x = x + a
        return x + self.mlp(self.norm2(x)), present


class TinyLM(nn.Module):
    def __init__(self, vocab, d_model=256, num_heads=8, num_kv_heads=2, layers=4, max_len=1024):
        super().__init__()
        self.max_len = max_len
        self.tok = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList([Block(d_model, num_heads, num_kv_heads, max_len) for _ in range(layers)])
        self.norm = nn.RMSNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids, past_kvs=None, use_cache=False):
        x = self.tok(ids)
        presents = [] if use_cache else None
        for i, block in enumerate(self.blocks):
            x, present = block(x, None if past_kvs is None else past_kvs[i], use_cache)
            if use_cache:
                presents.append(present)
        return self.head(self.norm(x)), presents

    @torch.no_grad()
    def generate(self, ids, max_new_tokens, temperature=1.0, use_cache=True):
        past = None
        for _ in range(max_new_tokens):
            step_in = ids[:, -1:] if (use_cache and past is not None) else ids[:, -self.max_len :]
            logits, past = self.forward(step_in, past_kvs=past, use_cache=use_cache)
            probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
            ids = torch.cat([ids, torch.multinomial(probs, 1)], dim=1)
        return ids
