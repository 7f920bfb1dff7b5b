# case: t20m-10-mask
# modelled-on: nikitakapitan/transformers https://github.com/nikitakapitan/transformers/commit/d997660c06058c3e43649c23a01b207dfc8582d0
# label: buggy
# class: real-bug
# pattern: an Annotated-Transformer re-implementation with its own names: the batch (data/batch.py) builds keep masks, src_mask = (src != pad).unsqueeze(-2) and tgt_mask = (tgt != pad).unsqueeze(-2) & following_mask(n), where following_mask (helper.py) is tril(ones(1, n, n)) as uint8, i.e. 1 where a word may be attended; the multi-head module unsqueezes the mask for the heads and the attention function fills scores.masked_fill(mask, -1e9) before a dim=-1 softmax
# why: buggy: masked_fill writes -1e9 where the mask is True/1, and these masks are 1 at the real, visible words, so every real key is hidden and only padding and future words keep their scores (a row with no padding and no future, such as the last decoder position of the longest sentence, is all -1e9 and attends uniformly); the author's next commit (4132990, "small changes") fills where mask == 0
# source: https://github.com/nikitakapitan/transformers https://github.com/nikitakapitan/transformers/commit/d997660c06058c3e43649c23a01b207dfc8582d0 src/transformers/attention.py
import math

import torch


def attention(attn_from, attn_to, value, mask=None, dropout=None):
    d_k = attn_from.size(-1)
    scores = torch.matmul(attn_from, attn_to.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, -1e9)  # expect: ATT002
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn
