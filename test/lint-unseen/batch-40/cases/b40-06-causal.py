# case: b40-06-causal
# modelled-on: Khan-Ramsha/FinetuneX https://github.com/Khan-Ramsha/FinetuneX/commit/5f74e0997e324a6041eab36463ce5f0950dbd7cf
# label: correct
# class: fixed
# pattern: the same grouped-query attention after the author's fix: new keys and values joined after the cached ones and handed back, key/value heads repeated to the query heads, and the attention computed by F.scaled_dot_product_attention; a 4-D additive mask from the caller (Hugging Face style) is cut to the current key length and passed as attn_mask, otherwise is_causal is set only when there is no mask and more than one query
# why: correct: the prompt is run with several queries and no cache, where SDPA's top-left causal mask is the right one, and each decoding step passes one query against the cached keys with is_causal=False, where every cached key is visible; when the caller supplies its own mask, is_causal stays False so the two are never combined
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/Khan-Ramsha/FinetuneX https://github.com/Khan-Ramsha/FinetuneX/commit/5f74e0997e324a6041eab36463ce5f0950dbd7cf modules/attention.py
"""
Group query attention with a key/value cache at inference time.
The causal mask is left to torch's scaled_dot_product_attention (SDPA).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GQA(nn.Module):
    def __init__(self, width, query_heads, kv_heads):
        super().__init__()
        self.width = width
        self.query_heads = query_heads
        self.kv_heads = kv_heads
        self.d_head = width // query_heads
        assert self.d_head * query_heads == width
        self.wq = nn.Linear(width, self.d_head * query_heads, bias=True)
        self.wk = nn.Linear(width, self.d_head * kv_heads, bias=True)
        self.wv = nn.Linear(width, self.d_head * kv_heads, bias=True)
        self.wo = nn.Linear(self.d_head * query_heads, width, bias=False)

    def forward(self, x, past_kv=None, attention_mask=None):
        B, T, C = x.shape
        q = self.wq(x).view(B, -1, self.query_heads, self.d_head).transpose(1, 2)
        k = self.wk(x).view(B, -1, self.kv_heads, self.d_head).transpose(1, 2)
        v = self.wv(x).view(B, -1, self.kv_heads, self.d_head).transpose(1, 2)

        if past_kv is not None:
            k = torch.cat((past_kv[0], k), dim=2)
            v = torch.cat((past_kv[1], v), dim=2)
        present = (k, v)
        k = k.repeat_interleave(self.query_heads // self.kv_heads, dim=1)
        v = v.repeat_interleave(self.query_heads // self.kv_heads, dim=1)

        mask = attention_mask
        if mask is not None:
            mask = mask[:, :, :, : k.shape[-2]]
            if q.device.type == "cuda":
                q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        # causal only for the prompt (several queries, no caller mask); one decoding query sees all cached keys
        causal = mask is None and T > 1
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.wo(y), present
