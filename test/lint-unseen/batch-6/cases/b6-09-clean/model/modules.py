# case: b6-09-clean
# modelled-on: SWivid/F5-TTS https://github.com/SWivid/F5-TTS/commit/2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01
# label: correct
# class: clean
# pattern: a flow-matching text-to-speech diffusion transformer: the attention processor splits heads, applies qk-norm and rotary embeddings, and for a batch with different target durations turns a (b, n) boolean length mask (True = frame inside the target duration, built by lens_to_mask in a utils module) into a (b, heads, n, n) attn_mask for SDPA with is_causal=False; a flash-attention branch unpads with the same mask instead
# why: correct: torch SDPA keeps the positions where a boolean mask is True, so every frame attends to the real frames of its own sample and not to the padding; SDPA scales by 1/sqrt(head_dim) itself; the model is bidirectional, so is_causal=False is intended
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/SWivid/F5-TTS https://github.com/SWivid/F5-TTS/commit/2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01 src/f5_tts/model/modules.py
import torch
import torch.nn.functional as F
from torch import nn

from .utils import apply_rotary_pos_emb


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, qk_norm=True):
        super().__init__()
        self.heads = heads
        inner = heads * dim_head
        self.to_q = nn.Linear(dim, inner)
        self.to_k = nn.Linear(dim, inner)
        self.to_v = nn.Linear(dim, inner)
        self.q_norm = nn.RMSNorm(dim_head, eps=1e-6) if qk_norm else None
        self.k_norm = nn.RMSNorm(dim_head, eps=1e-6) if qk_norm else None
        self.to_out = nn.Linear(inner, dim)
        self.processor = AttnProcessor()

    def forward(self, x, mask=None, rope=None):
        return self.to_out(self.processor(self, x, mask=mask, rope=rope))


class AttnProcessor:
    def __init__(self, attn_mask_enabled=True):
        self.attn_mask_enabled = attn_mask_enabled

    def __call__(self, attn, x, mask=None, rope=None):
        """x: (b, n, d) noised input; mask: (b, n) bool, True = frame inside the sample's duration"""
        batch_size = x.shape[0]
        query, key, value = attn.to_q(x), attn.to_k(x), attn.to_v(x)
        head_dim = key.shape[-1] // attn.heads
        query = query.view(batch_size, -1, attn.heads, head_dim).transpose(1, 2)  # (b, h, n, d)
        key = key.view(batch_size, -1, attn.heads, head_dim).transpose(1, 2)
        value = value.view(batch_size, -1, attn.heads, head_dim).transpose(1, 2)
        if attn.q_norm is not None:
            query = attn.q_norm(query)
        if attn.k_norm is not None:
            key = attn.k_norm(key)
        if rope is not None:
            query = apply_rotary_pos_emb(query, rope)
            key = apply_rotary_pos_emb(key, rope)

        if self.attn_mask_enabled and mask is not None:
            attn_mask = mask.unsqueeze(1).unsqueeze(1)  # 'b n -> b 1 1 n'
            attn_mask = attn_mask.expand(batch_size, attn.heads, query.shape[-2], key.shape[-2])
        else:
            attn_mask = None
        x = F.scaled_dot_product_attention(query, key, value, attn_mask=attn_mask, dropout_p=0.0, is_causal=False)
        x = x.transpose(1, 2).reshape(batch_size, -1, attn.heads * head_dim)
        return x.to(query.dtype)
