# case: b9-17-clean
# modelled-on: JorgeVanco/GPT-from-scratch https://github.com/JorgeVanco/GPT-from-scratch/commit/f25e8e8b6162946b285fc26fc3accb100521abaa
# label: correct
# class: clean
# pattern: a GPT-2 reimplementation configured from a dict in a config module: causal multi-head attention views q, k, v as (b, tokens, heads, head_dim), transposes heads forward, scores with keys.transpose(2, 3), fills a registered triu(diagonal=1) buffer (as bool) with -inf in place, and softmaxes over dim=3 after dividing by keys.shape[3] ** 0.5; transformer blocks read emb_dim, n_heads and context_length from the config
# why: correct: after transpose(1, 2) the keys are (b, heads, tokens, head_dim), so transpose(2, 3) swaps the last two axes, keys.shape[3] is the per-head width and dim=3 is the key axis of the 4-D scores; the triu(diagonal=1) buffer is 1 strictly above the diagonal, so masked_fill_ hides the future and keeps the diagonal
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/JorgeVanco/GPT-from-scratch https://github.com/JorgeVanco/GPT-from-scratch/commit/f25e8e8b6162946b285fc26fc3accb100521abaa src/model/GPTModel.py
import torch
import torch.nn as nn

from config import BASE_CONFIG


class MultiheadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads, dropout, qkv_bias=False) -> None:
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        super().__init__()
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.dropout = nn.Dropout(p=dropout)
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.linear = nn.Linear(d_out, d_out)
        self.register_buffer("mask", torch.triu(torch.ones((context_length, context_length)), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, num_tokens, _ = x.shape
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)

        attn_scores = queries @ keys.transpose(2, 3)  # batch, num_heads, num_tokens, num_tokens
        bool_mask = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(bool_mask, -torch.inf)
        attn_weights = torch.softmax(attn_scores / (keys.shape[3]) ** 0.5, dim=3)
        attn_weights = self.dropout(attn_weights)

        z = (attn_weights @ values).transpose(1, 2).contiguous().view(b, num_tokens, self.d_out)
        return self.linear(z)


class TransformerBlock(nn.Module):
    def __init__(self, cfg=BASE_CONFIG) -> None:
        super().__init__()
        emb = cfg["emb_dim"]
        self.layer_norm1 = nn.LayerNorm(emb)
        self.layer_norm2 = nn.LayerNorm(emb)
        self.dropout = nn.Dropout(cfg["drop_rate"])
        self.attention = MultiheadAttention(emb, emb, cfg["context_length"], cfg["n_heads"], cfg["drop_rate"], cfg["qkv_bias"])
        self.ff = nn.Sequential(nn.Linear(emb, 4 * emb), nn.GELU(), nn.Linear(4 * emb, emb))

    def forward(self, x):
        x = x + self.dropout(self.attention(self.layer_norm1(x)))
        return x + self.dropout(self.ff(self.layer_norm2(x)))
