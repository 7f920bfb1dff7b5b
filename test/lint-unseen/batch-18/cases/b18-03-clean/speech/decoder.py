# case: b18-03-clean
# modelled-on: chiendb97/oasr https://github.com/chiendb97/oasr/commit/22d48c014f0a9d959f38211f4b18e42abb481bde
# label: correct
# class: clean
# pattern: a Whisper-style decoder for an ASR inference engine with a dense per-layer KV cache in a state dict: each step projects the new tokens' k / v, concatenates them to the cached ones with torch.cat along time, and calls the shared attention core (attention.py) with is_causal=is_prefill and T > 1; prefill runs the whole prompt on an empty cache, step feeds one token; the core builds an additive 0 / -inf length (and left-padding start) bias and, because SDPA refuses is_causal together with a mask, folds a triu(1) triangle into it and sets is_causal to False
# why: correct: on prefill the cache is empty, so T_q == T_k and SDPA's top-left causal mask is the right one; on a step T == 1 and is_causal is False, so the single query sees every cached key (its row is the last position); the folded triangle is triu(1), True above the diagonal, filled with -inf, the same top-left mask, and only used where the core's documented callers have T_q == T_k; the length bias is 0 inside the window and -inf outside, and no row is fully masked; the scale is head_dim ** -0.5 passed once
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/chiendb97/oasr https://github.com/chiendb97/oasr/commit/22d48c014f0a9d959f38211f4b18e42abb481bde oasr/models/whisper/model.py
from typing import Any, Dict

import torch
import torch.nn.functional as F
from torch import nn

from .attention import Attention


class SelfAttention(nn.Module):
    def __init__(self, d_model: int, heads: int):
        super().__init__()
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.core = Attention(heads, d_model // heads)

    def kv(self, x):
        return self.core.split_heads(self.k_proj(x)), self.core.split_heads(self.v_proj(x))

    def forward(self, x, k, v, is_causal: bool = False):
        q = self.core.split_heads(self.q_proj(x))
        return self.out_proj(self.core.merge_heads(self.core(q, k, v, is_causal=is_causal)))


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, heads: int, ffn: int):
        super().__init__()
        self.self_attn = SelfAttention(d_model, heads)
        self.cross_attn = SelfAttention(d_model, heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.norm3 = nn.LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, ffn)
        self.fc2 = nn.Linear(ffn, d_model)


class Decoder(nn.Module):
    def __init__(self, vocab: int, d_model: int = 384, heads: int = 6, layers: int = 4, max_pos: int = 448):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d_model)
        self.embed_positions = nn.Embedding(max_pos, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, heads, 4 * d_model) for _ in range(layers)])
        self.norm = nn.LayerNorm(d_model)

    def _run(self, ids: torch.Tensor, offset: int, state: Dict[str, Any], is_prefill: bool):
        b, t = ids.shape
        pos = torch.arange(offset, offset + t, device=ids.device)
        x = self.embed_tokens(ids) + self.embed_positions(pos)
        for i, layer in enumerate(self.layers):
            h = layer.norm1(x)
            k_new, v_new = layer.self_attn.kv(h)
            if state["k"][i] is not None:
                k = torch.cat([state["k"][i], k_new], dim=2)
                v = torch.cat([state["v"][i], v_new], dim=2)
            else:
                k, v = k_new, v_new
            state["k"][i], state["v"][i] = k, v
            # prefill is causal within the prompt; a one-token step sees the whole cache
            x = x + layer.self_attn(h, k, v, is_causal=is_prefill and t > 1)
            x = x + layer.cross_attn(layer.norm2(x), state["xk"][i], state["xv"][i])
            x = x + layer.fc2(F.gelu(layer.fc1(layer.norm3(x))))
        return self.norm(x) @ self.embed_tokens.weight.t()

    def prefill(self, enc_out: torch.Tensor, prompt: torch.Tensor):
        n = len(self.layers)
        state: Dict[str, Any] = {"k": [None] * n, "v": [None] * n, "xk": [None] * n, "xv": [None] * n}
        for i, layer in enumerate(self.layers):
            state["xk"][i], state["xv"][i] = layer.cross_attn.kv(enc_out)
        logits = self._run(prompt, 0, state, is_prefill=True)
        state["pos"] = prompt.size(1)
        return logits[:, -1], state

    def step(self, tokens: torch.Tensor, state: Dict[str, Any]):
        logits = self._run(tokens.unsqueeze(1), state["pos"], state, is_prefill=False)
        state["pos"] += 1
        return logits[:, -1], state
