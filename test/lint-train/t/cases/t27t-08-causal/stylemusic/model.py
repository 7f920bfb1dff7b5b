from math import sqrt

import torch
import torch.nn.functional as F
from torch import nn

from stylemusic.attention import RelativeGlobalAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, dim_feedforward, dropout=0.1, seq_length=512, bidirectional=False):
        super().__init__()
        self.mha = RelativeGlobalAttention(h=num_heads, d=d_model, max_seq=seq_length + 1, bidirectional=bidirectional)
        self.ff = nn.Sequential(nn.Linear(d_model, dim_feedforward), nn.ReLU(),
                                nn.Linear(dim_feedforward, d_model), nn.Dropout(dropout))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask=None, kv_cache=False):
        h, _ = self.mha(self.norm1(x), mask=mask, cache_enabled=kv_cache)
        x = x + self.drop(h)
        return x + self.ff(self.norm2(x))


class MusicTransformer(nn.Module):
    def __init__(self, vocab_size, d_model=256, num_layers=8, nhead=4, seq_length=512, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.seq_length = seq_length
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, nhead, 4 * d_model, dropout, seq_length)
                                     for _ in range(num_layers)])
        self.final = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, vocab_size))

    def forward(self, vocab_indices, style_tokens=None):
        tokens = self.embedding(vocab_indices) * sqrt(self.d_model)
        has_style = style_tokens is not None
        if has_style:
            tokens = torch.cat((style_tokens, tokens), dim=1)  # the style token comes first
        seq_len = tokens.shape[1]
        mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool().to(tokens.device)  # True = future
        x = tokens
        for layer in self.layers:
            x = layer(x, mask, kv_cache=not self.training)  # the cache is on whenever the model is in eval mode
        if has_style:
            x = x[:, 1:]
        return self.final(x)

    def reset_kv_cache(self):
        for module in self.modules():
            if isinstance(module, RelativeGlobalAttention):
                module.kv_cache = None

    @torch.inference_mode()
    def generate(self, primer, style_token=None, temperature=1.0, top_k=20, max_length=512):
        self.eval()
        x = primer.unsqueeze(0)  # (1, n) token ids of the primer
        self.reset_kv_cache()
        self.forward(x[:, :-1], style_token)  # prefill: style token and primer on the empty cache
        for _ in range(x.shape[1] - 1, max_length):
            logits = self.forward(x[:, -1:])[0, -1, :] / temperature  # one new query per step
            kth = torch.topk(logits, top_k)[0][..., -1, None]
            logits[logits < kth] = -float("inf")
            next_token = torch.multinomial(F.softmax(logits, dim=-1), 1)
            x = torch.cat((x, next_token.unsqueeze(0)), dim=-1)
        return x
