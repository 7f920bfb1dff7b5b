# case: b25-02-mask
# modelled-on: cklxx/mini-llm https://github.com/cklxx/mini-llm/commit/2f9d4b8d4d233b08b1c710fae7390fe396001964
# label: buggy
# class: real-bug
# pattern: the author's "fix attention mask dtype handling" of the grouped-query attention in b25-01: the model still builds a boolean mask with True = blocked (triu(diagonal=1) causal part OR-ed with the inverted padding mask), and the attention now converts it before F.scaled_dot_product_attention with mask.masked_fill(mask, float("-inf")).to(dtype=q.dtype) so that SDPA receives an additive float mask
# why: buggy: masked_fill keeps the dtype of the tensor it is called on, so filling a boolean tensor with -inf writes True (-inf is non-zero) and the result is the same boolean mask; .to(q.dtype) then makes it a 0/1 float mask (1.0 at the blocked positions, 0.0 elsewhere), and SDPA adds a float attn_mask to the scores: +1 on the future and padding logits, nothing masked, whatever the polarity (the intended additive mask needs a float tensor filled with -inf, e.g. torch.zeros(..., dtype=q.dtype).masked_fill(mask, -inf)). The expectation sits where the 0/1 float mask reaches SDPA (the rule pages' placement for a 0/1 mask made float and handed to a PyTorch attention mask parameter). The scale (SDPA's default) and the key layout are right
# source: https://github.com/cklxx/mini-llm https://github.com/cklxx/mini-llm/commit/2f9d4b8d4d233b08b1c710fae7390fe396001964 src/model/transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_attention_bias(input_ids: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """Boolean (batch, 1, T, T) mask, True where a query may not look."""
    b, t = input_ids.shape
    future = torch.triu(torch.ones((t, t), dtype=torch.bool, device=input_ids.device), diagonal=1)
    future = future[None, None].expand(b, 1, t, t)
    padded = (~keep.bool())[:, None, None, :]
    return future | padded


class GroupedAttention(nn.Module):
    def __init__(self, hidden: int, n_heads: int, n_kv_heads: int, p_drop: float = 0.1):
        super().__init__()
        self.hidden = hidden
        self.n_heads = n_heads
        self.n_kv = n_kv_heads
        self.head_dim = hidden // n_heads
        self.rep = n_heads // n_kv_heads
        self.q_proj = nn.Linear(hidden, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, hidden, bias=False)
        self.dropout = nn.Dropout(p_drop)

    def _repeat(self, x: torch.Tensor) -> torch.Tensor:
        if self.rep == 1:
            return x
        b, h, t, d = x.shape
        return x[:, :, None].expand(b, h, self.rep, t, d).reshape(b, h * self.rep, t, d)

    def forward(self, hidden_states, attention_mask=None, past_key_value=None, use_cache=False):
        b, t, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(b, t, self.n_kv, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(b, t, self.n_kv, self.head_dim).transpose(1, 2)
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        present = (k, v) if use_cache else None
        k, v = self._repeat(k), self._repeat(v)

        if attention_mask is not None and attention_mask.dtype == torch.bool:
            attention_mask = attention_mask.masked_fill(attention_mask, float("-inf")).to(dtype=q.dtype)
        elif attention_mask is not None and attention_mask.dtype != q.dtype:
            attention_mask = attention_mask.to(dtype=q.dtype)

        out = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=attention_mask,  # expect: ATT002
            dropout_p=self.dropout.p if self.training else 0.0,
        )
        out = out.transpose(1, 2).contiguous().view(b, t, self.hidden)
        return self.dropout(self.o_proj(out)), present


class Decoder(nn.Module):
    def __init__(self, vocab: int, hidden: int = 256, depth: int = 4, n_heads: int = 8, n_kv_heads: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.attn = nn.ModuleList(GroupedAttention(hidden, n_heads, n_kv_heads) for _ in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(hidden) for _ in range(depth))
        self.out = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, keep):
        bias = build_attention_bias(input_ids, keep)
        x = self.embed(input_ids)
        for norm, attn in zip(self.norms, self.attn):
            h, _ = attn(norm(x), attention_mask=bias)
            x = x + h
        return self.out(x)
