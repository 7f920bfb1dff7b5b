# case: b13-06-clean
# modelled-on: Kamichanw/SeekDeeper https://github.com/Kamichanw/SeekDeeper/commit/18599cc1a4e555d214c9141a8dc98520032fd46b
# label: correct
# class: clean
# pattern: a from-scratch BERT: the pretraining loop builds attention_mask = (input_ids != pad_id).bool(), the model repeats the (B, S) keep mask to (B, 1, S, S), and each self-attention layer hands it to SDPA as attn_mask with is_causal=False and scale=None, or, on the fallback path, scales by sqrt(head size) and fills -inf where mask == 0
# why: correct: the mask is boolean and True for real tokens, which is exactly SDPA's convention (True = take part in attention), and the fallback fills where the keep mask is 0, the same positions; scale=None lets SDPA apply 1/sqrt(head size) once, and the fallback divides by math.sqrt of the per-head size; is_causal=False is right for a bidirectional encoder; rows of padded queries still keep [CLS] and the other real tokens, so no row is all -inf; what a naive linter could misread: ATT002 (a keep mask passed straight to attn_mask, built in the training loop and reshaped in another module; mask == 0 on the fallback), ATT008 (is_causal=False next to attn_mask), ATT004 (scale=None), ATT007 (-inf fill)
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/Kamichanw/SeekDeeper https://github.com/Kamichanw/SeekDeeper/commit/18599cc1a4e555d214c9141a8dc98520032fd46b bert/modules/layers.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, dropout: float):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = hidden_size // num_heads
        self.all_head_size = self.num_heads * self.head_size
        self.query = nn.Linear(hidden_size, self.all_head_size)
        self.key = nn.Linear(hidden_size, self.all_head_size)
        self.value = nn.Linear(hidden_size, self.all_head_size)
        self.dropout = nn.Dropout(dropout)
        self.flash = hasattr(F, "scaled_dot_product_attention")

    def forward(self, x, mask=None):
        bsz, nh, nd = x.size(0), self.num_heads, self.head_size
        q = self.query(x).view(bsz, -1, nh, nd).transpose(1, 2)
        k = self.key(x).view(bsz, -1, nh, nd).transpose(1, 2)
        v = self.value(x).view(bsz, -1, nh, nd).transpose(1, 2)
        if self.flash:
            att = F.scaled_dot_product_attention(
                q,
                k,
                v,
                dropout_p=self.dropout.p if self.training else 0.0,
                is_causal=False,
                attn_mask=mask,
                scale=None,
            )
        else:
            att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(nd)
            if mask is not None:
                att = att.masked_fill(mask == 0, float("-inf"))
            att = self.dropout(F.softmax(att, dim=-1))
            att = torch.matmul(att, v)
        return att.transpose(1, 2).contiguous().view(bsz, -1, self.all_head_size)


class EncoderLayer(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, intermediate: int, dropout: float):
        super().__init__()
        self.attention = SelfAttention(hidden_size, num_heads, dropout)
        self.out = nn.Linear(hidden_size, hidden_size)
        self.norm1 = nn.LayerNorm(hidden_size)
        self.ffn = nn.Sequential(nn.Linear(hidden_size, intermediate), nn.GELU(), nn.Linear(intermediate, hidden_size))
        self.norm2 = nn.LayerNorm(hidden_size)

    def forward(self, x, mask=None):
        x = self.norm1(x + self.out(self.attention(x, mask)))
        return self.norm2(x + self.ffn(x))
