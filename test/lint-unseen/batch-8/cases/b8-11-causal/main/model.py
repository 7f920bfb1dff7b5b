# case: b8-11-causal
# modelled-on: aaaprprpr/llm-from-scratch-main https://github.com/aaaprprpr/llm-from-scratch-main/commit/494ab453c15de16254ca53dac84d955858c3a1d5
# label: buggy
# class: real-bug
# pattern: a from-scratch Chinese LM with RoPE and a KV cache passed as past_key_values (HF-style wrapper in another module): the attention concatenates the cached keys in front of the new ones and calls SDPA with is_causal = True if T > 1 else False; positions are offset by the cached length
# why: buggy (the repository's own audit, AUDIT-010 "with a past cache and several new tokens at once the causal mask is misaligned", and the fix in 494ab45, which builds key_pos <= past_length + i masks when a cache is present): SDPA's is_causal=True is aligned top-left, so with T > 1 new tokens after past_len cached ones query i only sees keys 0..i; the single-token decode step works only because it switches is_causal off
# source: https://github.com/aaaprprpr/llm-from-scratch-main https://github.com/aaaprprpr/llm-from-scratch-main/commit/494ab453c15de16254ca53dac84d955858c3a1d5 main/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Rotary(nn.Module):
    def __init__(self, head_dim: int, theta: float = 10000.0, max_len: int = 4096):
        super().__init__()
        inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
        ang = torch.outer(torch.arange(max_len).float(), inv)
        self.register_buffer("cos", ang.cos(), persistent=False)
        self.register_buffer("sin", ang.sin(), persistent=False)

    def forward(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        cos, sin = self.cos[positions][:, None], self.sin[positions][:, None]  # (B, 1, T, hd/2)
        x1, x2 = x[..., ::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class CausalSelfAttentionRoPE(nn.Module):
    def __init__(self, d_model: int, n_head: int, theta: float = 10000.0):
        super().__init__()
        self.d_model, self.n_head = d_model, n_head
        self.qkv_proj = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)
        self.rope = Rotary(d_model // n_head, theta)

    def forward(self, x, positions, past_key_value=None, use_cache=False):
        B, T, C = x.size()
        q, k, v = self.qkv_proj(x).split(self.d_model, dim=-1)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q, k = self.rope(q, positions), self.rope(k, positions)

        if past_key_value is not None:
            past_k, past_v = past_key_value
            k = torch.cat([past_k, k], dim=-2)
            v = torch.cat([past_v, v], dim=-2)
        present = (k, v) if use_cache else None

        is_causal = True if T > 1 else False
        out = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)  # expect: ATT008
        return self.out_proj(out.transpose(1, 2).contiguous().view(B, T, C)), present


class Block(nn.Module):
    def __init__(self, d_model: int, n_head: int, d_ff: int):
        super().__init__()
        self.attn_norm, self.ffn_norm = nn.RMSNorm(d_model), nn.RMSNorm(d_model)
        self.attn = CausalSelfAttentionRoPE(d_model, n_head)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff, bias=False), nn.SiLU(), nn.Linear(d_ff, d_model, bias=False))

    def forward(self, x, positions, past_key_value=None, use_cache=False):
        a, present = self.attn(self.attn_norm(x), positions, past_key_value, use_cache)
        x = x + a
        return x + self.ffn(self.ffn_norm(x)), present


class Transformer(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 512, n_head: int = 8, d_ff: int = 1408, num_layers: int = 8):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList([Block(d_model, n_head, d_ff) for _ in range(num_layers)])
        self.norm = nn.RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, ids, past_key_values=None, use_cache=False):
        B, T = ids.shape
        start = past_key_values[0][0].shape[-2] if past_key_values is not None else 0
        positions = torch.arange(start, start + T, device=ids.device).unsqueeze(0).expand(B, -1)
        x = self.embedding(ids)
        presents = [] if use_cache else None
        for i, layer in enumerate(self.layers):
            past = past_key_values[i] if past_key_values is not None else None
            x, present = layer(x, positions, past, use_cache)
            if use_cache:
                presents.append(present)
        return self.lm_head(self.norm(x)), presents
