# case: t20m-11-mask
# modelled-on: nikitakapitan/transformers https://github.com/nikitakapitan/transformers/commit/4132990c2e0f4e1af94599b7e41027b301ffd7a1
# label: correct
# class: fixed
# pattern: the fixed form of t20m-10-mask: the same keep masks from the batch (data/batch.py: (src != pad).unsqueeze(-2); (tgt != pad).unsqueeze(-2) & following_mask(n), a uint8 tril from helper.py) reach the attention function, which now fills scores.masked_fill(mask == 0, -1e9) before a dim=-1 softmax
# why: correct: mask == 0 selects the padding and the future words of a keep mask; the triangle keeps the diagonal, so no row is fully hidden, and -1e9 is finite in float32; scale 1/sqrt(d_k)
# looks-like: ATT002, ATT007
# source: https://github.com/nikitakapitan/transformers https://github.com/nikitakapitan/transformers/commit/4132990c2e0f4e1af94599b7e41027b301ffd7a1 src/transformers/attention.py
import math

import torch


def attention(attn_from, attn_to, value, mask=None, dropout=None):
    d_k = attn_from.size(-1)
    scores = torch.matmul(attn_from, attn_to.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn
