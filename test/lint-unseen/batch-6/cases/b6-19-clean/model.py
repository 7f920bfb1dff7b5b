# case: b6-19-clean
# modelled-on: KK-LLM/encoder-decoder-transformer-from-scratch https://github.com/KK-LLM/encoder-decoder-transformer-from-scratch/commit/dc682e9c3e0b3dcfd9840e04fc5080b0f79ea473
# label: correct
# class: clean
# pattern: an encoder-decoder translation transformer whose masks are built by helpers in a masks module (source (src != pad) as (B, 1, 1, S), target (tgt != pad) & tril as (B, 1, T, T), True = may attend), an attention core that fills masked_fill(mask == 0, -1e9) before the softmax, and a training script that runs the forward under torch.amp.autocast on CUDA with dtype=torch.bfloat16
# why: correct: the masks are keep masks and the core fills where they are False; under autocast the scores are bfloat16, whose range (about 3.4e38) holds -1e9, so the fill neither overflows nor raises, unlike float16
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/KK-LLM/encoder-decoder-transformer-from-scratch https://github.com/KK-LLM/encoder-decoder-transformer-from-scratch/commit/dc682e9c3e0b3dcfd9840e04fc5080b0f79ea473 encoder_decoder/v0_baseline/src/train_encoder_decoder.py
import math
from typing import Optional

import torch
import torch.nn as nn


# dropout(softmax(q k^T / sqrt(d_head))) v
def attention_core(query, key, value, mask: Optional[torch.Tensor] = None, dropout: Optional[nn.Dropout] = None):
    # query [B, H, L_q, d_head]; key, value [B, H, L_k, d_head]
    d_head = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_head)  # [B, H, L_q, L_k]
    if mask is not None:
        # mask: True means allowed; False means masked.
        scores = scores.masked_fill(mask == 0, -1e9)
    attention_weights = torch.softmax(scores, dim=-1)
    if dropout is not None:
        attention_weights = dropout(attention_weights)
    return torch.matmul(attention_weights, value)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads: int, d_model: int, dropout: float):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads, self.d_head = num_heads, d_model // num_heads
        self.q_proj, self.k_proj, self.v_proj, self.out_proj = (nn.Linear(d_model, d_model) for _ in range(4))
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):
        b, l, _ = x.shape
        return x.view(b, l, self.num_heads, self.d_head).transpose(1, 2)  # [B, H, L, d_head]

    def forward(self, x_q, x_kv, mask=None):
        q, k, v = self.split_heads(self.q_proj(x_q)), self.split_heads(self.k_proj(x_kv)), self.split_heads(self.v_proj(x_kv))
        ctx = attention_core(q, k, v, mask, self.dropout)
        b, _, l, _ = ctx.shape
        return self.out_proj(ctx.transpose(1, 2).contiguous().view(b, l, -1))


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d_model=512, heads=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.enc_attn = MultiHeadAttention(heads, d_model, 0.1)
        self.dec_self = MultiHeadAttention(heads, d_model, 0.1)
        self.dec_cross = MultiHeadAttention(heads, d_model, 0.1)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, src, tgt_in, src_mask, tgt_mask):
        memory = self.emb(src)
        memory = memory + self.enc_attn(memory, memory, src_mask)
        y = self.emb(tgt_in)
        y = y + self.dec_self(y, y, tgt_mask)
        y = y + self.dec_cross(y, memory, src_mask)
        return self.out(y)
