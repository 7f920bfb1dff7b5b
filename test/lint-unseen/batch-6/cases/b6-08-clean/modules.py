# case: b6-08-clean
# modelled-on: collabora/WhisperSpeech https://github.com/collabora/WhisperSpeech/commit/e82850046beab70d775dc6e74aa4ff0633caf7bb
# label: correct
# class: clean
# pattern: a text-to-speech decoder (Whisper-style blocks with self- and cross-attention) with a preallocated KV cache written at kv_positions; the decoder keeps an additive (length, length) buffer filled with -inf above the diagonal and, at inference, passes its rows at the query positions (sliced to the cached key length) as attn_mask to SDPA with is_causal=False, while training uses is_causal=True and no mask; an extra qk_scale multiplies q and k by sqrt(qk_scale) on top of SDPA's own 1/sqrt(d)
# why: correct: SDPA adds a float mask, so the -inf entries above the diagonal hide the future keys; selecting the rows at q_positions aligns each (new) query with its absolute position over the whole cache, so single-token and multi-token steps after cached keys are causal; in training the sequence is whole and is_causal=True is top-left aligned over equal lengths; qk_scale defaults to 1, leaving SDPA's scale as the paper's
# looks-like: ATT002, ATT003, ATT004, ATT007, ATT008
# source: https://github.com/collabora/WhisperSpeech https://github.com/collabora/WhisperSpeech/commit/e82850046beab70d775dc6e74aa4ff0633caf7bb whisperspeech/modules.py
import math

import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_state, n_head, qk_scale=1.0):
        super().__init__()
        self.n_head = n_head
        self.sqrt_qk_scale = math.sqrt(qk_scale)
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)
        self.register_buffer("k_cache", None)
        self.register_buffer("v_cache", None)

    def setup_kv_cache(self, max_batch_size, max_seq_len, dtype=torch.float32):
        shape = (max_batch_size, self.n_head, max_seq_len, self.out.in_features // self.n_head)
        self.k_cache = torch.zeros(shape, dtype=dtype, device=self.key.weight.device)
        self.v_cache = torch.zeros(shape, dtype=dtype, device=self.value.weight.device)

    def split_heads(self, x):
        # (B, T, C) -> (B, H, T, C/H)
        return x.view(*x.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)

    def forward(self, qx, q_positions, kvx, kv_positions, causal=False, mask=None):
        q = self.split_heads(self.query(qx) * self.sqrt_qk_scale)
        k = self.split_heads(self.key(kvx) * self.sqrt_qk_scale)
        v = self.split_heads(self.value(kvx))
        if self.k_cache is not None:
            self.k_cache[: k.shape[0], :, kv_positions] = k
            self.v_cache[: v.shape[0], :, kv_positions] = v
            k, v = self.k_cache[: k.shape[0]], self.v_cache[: v.shape[0]]
        if mask is not None:
            mask = mask[q_positions, : k.shape[-2]]  # (T_q, T_cache), additive
        wv = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0, is_causal=causal)
        return self.out(wv.permute(0, 2, 1, 3).flatten(start_dim=2))


class ResidualAttentionBlock(nn.Module):
    def __init__(self, n_state, n_head, qk_scale=1.0):
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head, qk_scale)
        self.attn_ln = nn.LayerNorm(n_state)
        self.cross_attn = MultiHeadAttention(n_state, n_head, qk_scale)
        self.cross_attn_ln = nn.LayerNorm(n_state)
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def setup_kv_cache(self, max_batch_size, max_seq_len):
        self.attn.setup_kv_cache(max_batch_size, max_seq_len)

    def forward(self, x, x_positions, xenc, xenc_positions, causal=False, mask=None):
        lnx = self.attn_ln(x)
        x = x + self.attn(lnx, x_positions, lnx, x_positions, causal=causal, mask=mask)
        lnx = self.cross_attn_ln(x)
        x = x + self.cross_attn(lnx, x_positions, xenc, xenc_positions)
        return x + self.mlp(self.mlp_ln(x))


class BaseDecoder(nn.Module):
    def __init__(self, depth=6, n_head=6, width=384, qk_scale=1.0, length=2250):
        super().__init__()
        self.layers = nn.ModuleList([ResidualAttentionBlock(width, n_head, qk_scale) for _ in range(depth)])
        self.ln_post = nn.LayerNorm(width)
        mask = torch.empty(length, length).fill_(-torch.inf).triu_(1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x, x_positions, xenc, xenc_positions):
        for layer in self.layers:
            x = layer(x, x_positions, xenc, xenc_positions, causal=self.training, mask=self.mask if not self.training else None)
        return self.ln_post(x)
