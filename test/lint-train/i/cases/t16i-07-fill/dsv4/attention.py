import torch
import torch.nn as nn
import torch.nn.functional as F

from .masks import build_causal_padding_mask


def repeat_kv(x, groups):
    if groups == 1:
        return x
    b, h, s, d = x.shape
    return x[:, :, None].expand(b, h, groups, s, d).reshape(b, h * groups, s, d)


def eager_attention_with_sink(module, query, key, value, attention_mask, scaling, dropout=0.0):
    """Appends a per-head sink logit as an extra softmax column whose value slot is zero."""
    key_states = repeat_kv(key, module.num_key_value_groups)
    value_states = repeat_kv(value, module.num_key_value_groups)
    attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
    if attention_mask is not None:
        attn_weights = attn_weights + attention_mask[:, :, :, : attn_weights.shape[-1]]
    sinks = module.sinks.reshape(1, -1, 1, 1).expand(query.shape[0], -1, query.shape[-2], -1)
    combined = torch.cat([attn_weights, sinks.to(attn_weights.dtype)], dim=-1)
    combined = combined - combined.max(dim=-1, keepdim=True).values
    probs = F.softmax(combined, dim=-1, dtype=torch.float32)[..., :-1]
    probs = F.dropout(probs, p=dropout, training=module.training).to(value_states.dtype)
    return torch.matmul(probs, value_states).transpose(1, 2).contiguous(), probs


class SinkAttention(nn.Module):
    def __init__(self, hidden, heads, kv_heads, sliding_window=128):
        super().__init__()
        self.head_dim = hidden // heads
        self.heads = heads
        self.kv_heads = kv_heads
        self.num_key_value_groups = heads // kv_heads
        self.sliding_window = sliding_window
        self.softmax_scale = self.head_dim**-0.5
        self.q = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.kv = nn.Linear(hidden, 2 * kv_heads * self.head_dim, bias=False)
        self.o = nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.sinks = nn.Parameter(torch.zeros(heads))

    def forward(self, hidden_states, attention_mask_2d=None):
        # trained in bfloat16: hidden_states.dtype is torch.bfloat16
        b, s, _ = hidden_states.shape
        q = self.q(hidden_states).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(hidden_states).view(b, s, 2, self.kv_heads, self.head_dim).unbind(2)
        k, v = k.transpose(1, 2), v.transpose(1, 2)
        mask = build_causal_padding_mask(
            attention_mask_2d, b, s, hidden_states.dtype, hidden_states.device, self.sliding_window
        )
        out, _ = eager_attention_with_sink(self, q, k, v, mask, self.softmax_scale)
        return self.o(out.reshape(b, s, -1))
