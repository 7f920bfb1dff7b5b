# case: b46-08-clean
# modelled-on: lucidrains/lookahead-keys-attention https://github.com/lucidrains/lookahead-keys-attention/commit/84647dcaa5e55eb5c41842a5afce927730ecf42b
# label: correct
# class: clean
# pattern: CASTLE attention with lookahead keys (reference path): six projections; the parallel (training) path builds a boolean upper-triangle `future = ones(n, n).triu(1)`, zeroes the future part of the q_c v_u^T product with masked_fill(future, 0.), keeps only the future part of sigmoid(q_u k_u^T) with masked_fill(~future, 0.), combines them into scores q_c k_c^T - silu(S_u), fills the future with -finfo.max and takes softmax(dim=-1); queries are pre-multiplied by dim_head ** -0.5; the single-token inference path updates a cache (U, q_u, k_c, v_c), concatenates the new key/value to the cached ones and takes the softmax without a mask; several tokens together with a cache are refused by an assert
# why: correct: the two masked_fill(..., 0.) calls are not attention masks but the method's causal/anti-causal split of the lookahead term (zero, not -inf, is the neutral value of the products they feed); the attention mask is the -finfo.max fill of the future before the softmax over the key axis; the scale is applied once, to the queries; in the cached path the single new query may see every cached key and itself, so no mask is needed, and a multi-token call with a cache cannot happen because of the assert
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/lucidrains/lookahead-keys-attention https://github.com/lucidrains/lookahead-keys-attention/commit/84647dcaa5e55eb5c41842a5afce927730ecf42b lookahead_keys_attention/lookahead_keys_attention.py
from collections import namedtuple

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn

State = namedtuple("State", ["u_sum", "qu_seen", "kc_seen", "vc_seen"])


def most_negative(t):
    return -torch.finfo(t.dtype).max


class LookaheadKeyAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.q_scale = dim_head ** -0.5
        self.proj_in = nn.Linear(dim, inner * 6, bias=False)
        self.proj_out = nn.Linear(inner, dim, bias=False)

    def forward(self, x, state: State = None, want_state: bool = None):
        n = x.shape[1]
        single = n == 1
        want_state = single if want_state is None else want_state

        parts = rearrange(self.proj_in(x), "b n (six h d) -> six b h n d", six=6, h=self.heads)
        qu, ku, vu, qc, kc, vc = parts
        qu, qc = qu * self.q_scale, qc * self.q_scale

        if not single:
            assert state is None, "a cached state is only used one token at a time"
            future = torch.ones(n, n, device=x.device, dtype=torch.bool).triu(1)

            past_part = einsum("bhid,bhjd->bhij", qc, vu).masked_fill(future, 0.0)
            ahead = einsum("bhid,bhjd->bhij", qu, ku).sigmoid().masked_fill(~future, 0.0)
            s_u = einsum("bhij,bhkj->bhik", past_part, ahead)
            scores = einsum("bhid,bhjd->bhij", qc, kc) - F.silu(s_u)
            scores = scores.masked_fill(future, most_negative(scores))
            attn = scores.softmax(dim=-1)
            out = einsum("bhij,bhjd->bhid", attn, vc)
            new_state = State(einsum("bhij,bhjd->bhid", ahead, vu), qu, kc, vc) if want_state else None
        else:
            if state is None:
                empty = qu[..., :0, :]
                state = State(empty, empty, empty, empty)
            ahead = einsum("bhid,bhjd->bhij", state.qu_seen, ku).sigmoid()
            u_prev = state.u_sum + ahead * vu
            u_all = torch.cat((u_prev, torch.zeros_like(qu)), dim=-2)
            kc = torch.cat((state.kc_seen, kc), dim=-2)
            vc = torch.cat((state.vc_seen, vc), dim=-2)
            scores = einsum("bhid,bhjd->bhij", qc, kc) - F.silu(einsum("bhid,bhjd->bhij", qc, u_all))
            attn = scores.softmax(dim=-1)
            out = einsum("bhij,bhjd->bhid", attn, vc)
            new_state = State(u_all, torch.cat((state.qu_seen, qu), dim=-2), kc, vc)

        out = self.proj_out(rearrange(out, "b h n d -> b n (h d)"))
        return (out, new_state) if want_state else out
