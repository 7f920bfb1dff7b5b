import torch
import torch.nn as nn

from minigpt.kvcache import LayerwiseKV
from minigpt.layers import CausalSelfAttention


class Block(nn.Module):
    def __init__(self, d_model, n_head, n_kv_head=None):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_head, n_kv_head)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, kv_cache=None):
        a, new_kv = self.attn(self.ln1(x), kv_cache=kv_cache)
        x = x + a
        return x + self.mlp(self.ln2(x)), new_kv


class MiniGPT(nn.Module):
    def __init__(self, vocab, d_model=256, n_layer=4, n_head=8, n_kv_head=2, window=512, sink=4):
        super().__init__()
        self.n_layer, self.window, self.sink = n_layer, window, sink
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_head, n_kv_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx, kv_cache=None):
        x = self.tok_emb(idx)
        states = []
        for i, block in enumerate(self.blocks):
            x, new_kv = block(x, kv_cache=kv_cache.get(i) if kv_cache is not None else None)
            states.append(new_kv)
        return self.lm_head(self.ln_f(x)), states

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        cache = LayerwiseKV(self.n_layer, window=self.window, sink=self.sink)
        logits, states = self(idx, kv_cache=cache)
        for i, (k, v) in enumerate(states):
            cache.append(i, k, v)
        for _ in range(max_new_tokens):
            logits, states = self(idx[:, -1:], kv_cache=cache)  # one query, Tprev + 1 keys
            next_id = torch.multinomial(torch.softmax(logits[:, -1, :], dim=-1), 1)
            idx = torch.cat([idx, next_id], dim=1)
            for i, (k, v) in enumerate(states):
                cache.append(i, k, v)
        return idx
