import torch
import torch.nn as nn

from .attention import GroupedSelfAttention


class Block(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, dropout):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = GroupedSelfAttention(dim, n_heads, dropout, n_kv_heads=n_kv_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, past_kv=None, use_cache=False):
        h, present = self.attn(self.norm1(x), past_kv=past_kv, use_cache=use_cache)
        x = x + h
        x = x + self.mlp(self.norm2(x))
        return x, present


class TinyCausalLM(nn.Module):
    def __init__(self, vocab, dim=256, depth=4, n_heads=8, n_kv_heads=2, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim, n_heads, n_kv_heads, dropout) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, past_key_values=None, use_cache=False):
        x = self.embed(input_ids)
        presents = []
        for i, block in enumerate(self.blocks):
            past = past_key_values[i] if past_key_values is not None else None
            x, present = block(x, past_kv=past, use_cache=use_cache)
            presents.append(present)
        return self.head(x), (presents if use_cache else None)

    def prepare_inputs_for_generation(self, input_ids, past_key_values=None, **kwargs):
        # once a cache exists only the newest token is fed
        if past_key_values is not None:
            input_ids = input_ids[:, -1:]
        return {"input_ids": input_ids, "past_key_values": past_key_values, "use_cache": True}

    @torch.no_grad()
    def greedy(self, input_ids, steps):
        logits, cache = self.forward(input_ids, use_cache=True)
        out = input_ids
        for _ in range(steps):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            out = torch.cat([out, nxt], dim=1)
            inputs = self.prepare_inputs_for_generation(out, past_key_values=cache)
            logits, cache = self.forward(**inputs)
        return out
