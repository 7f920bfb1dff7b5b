# case: b50-02-clean
# modelled-on: Abhisingh18/Sutra-1.3B-Model https://github.com/Abhisingh18/Sutra-1.3B-Model/commit/5c16dda54dfc4063e419c10270b2a6979be08409
# label: correct
# class: clean
# pattern: a folder: grouped-query attention of a small decoder-only LM (32 query heads share 4 key/value heads) computed with scaled_dot_product_attention and its default scale; keys and values of earlier steps are concatenated from a per-layer cache tuple; is_causal is set when no cache is passed or when the call carries more than one token; the sampling loop (other file) starts every layer's cache as (None, None), prefills the prompt in one call and then feeds one token per step
# why: correct: the default SDPA scale is 1/sqrt(q.size(-1)) = 1/sqrt(head_dim), the scale these heads need. With a cache the model is called in two ways only: the prefill, where the cache holds (None, None) so the keys are exactly the prompt's and queries = keys (SDPA's top-left causal mask is then the usual lower triangle), and single-token steps, where is_causal is False and the one query may see every cached key, which is what causality allows; training calls pass no cache and are causal. No call sends several new tokens after a filled cache, the one case a top-left causal mask would get wrong
# looks-like: ATT003, ATT008
# source: https://github.com/Abhisingh18/Sutra-1.3B-Model https://github.com/Abhisingh18/Sutra-1.3B-Model/commit/5c16dda54dfc4063e419c10270b2a6979be08409 src/model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from rotary import rotate


def share_kv_heads(t: torch.Tensor, groups: int) -> torch.Tensor:
    """(B, kv_heads, T, D) -> (B, kv_heads * groups, T, D) so each query head has a partner."""
    if groups == 1:
        return t
    b, h, n, d = t.shape
    return t.unsqueeze(2).expand(b, h, groups, n, d).reshape(b, h * groups, n, d)


class GroupedQueryAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.q_heads = cfg.n_heads
        self.kv_heads = cfg.n_kv_heads
        self.dim_head = cfg.head_dim
        self.groups = cfg.n_heads // cfg.n_kv_heads
        self.p_drop = cfg.dropout
        self.wq = nn.Linear(cfg.d_model, self.q_heads * self.dim_head, bias=False)
        self.wk = nn.Linear(cfg.d_model, self.kv_heads * self.dim_head, bias=False)
        self.wv = nn.Linear(cfg.d_model, self.kv_heads * self.dim_head, bias=False)
        self.wo = nn.Linear(self.q_heads * self.dim_head, cfg.d_model, bias=False)

    def _heads(self, t, n_heads):
        b, n, _ = t.shape
        return t.view(b, n, n_heads, self.dim_head).transpose(1, 2)

    def forward(self, x, cos, sin, layer_cache=None, offset: int = 0):
        b, n, _ = x.shape
        q = self._heads(self.wq(x), self.q_heads)
        k = self._heads(self.wk(x), self.kv_heads)
        v = self._heads(self.wv(x), self.kv_heads)
        q, k = rotate(q, k, cos, sin, offset=offset)

        updated = None
        if layer_cache is not None:
            prev_k, prev_v = layer_cache
            if prev_k is not None:
                k = torch.cat([prev_k, k], dim=2)
                v = torch.cat([prev_v, v], dim=2)
            updated = (k, v)

        k = share_kv_heads(k, self.groups)
        v = share_kv_heads(v, self.groups)

        # prefill and training: causal; one new token: nothing later to hide
        out = F.scaled_dot_product_attention(
            q, k, v,
            dropout_p=self.p_drop if self.training else 0.0,
            is_causal=layer_cache is None or n > 1,
        )
        out = out.transpose(1, 2).contiguous().view(b, n, -1)
        return self.wo(out), updated
