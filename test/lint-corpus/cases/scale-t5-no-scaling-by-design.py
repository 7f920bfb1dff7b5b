# case: scale-t5-no-scaling-by-design
# modelled-on: huggingface/transformers https://github.com/huggingface/transformers/blob/main/src/transformers/models/t5/modeling_t5.py
# label: correct
# pattern: T5 attention multiplies q and k with no 1/sqrt(d) at all and adds a learned relative position bias (plus the extended mask) before a float32 softmax
# why: T5 folds the 1/sqrt(d_kv) into the initialisation of the q projection (Mesh TensorFlow convention); omitting it here is intended and matches the released checkpoints
# looks-like: ATT003, ATT005
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class T5Attention(nn.Module):
    def __init__(self, d_model: int, d_kv: int, n_heads: int, relative_attention_num_buckets: int = 32, has_relative_attention_bias: bool = False):
        super().__init__()
        self.d_model = d_model
        self.key_value_proj_dim = d_kv
        self.n_heads = n_heads
        self.inner_dim = n_heads * d_kv
        self.q = nn.Linear(d_model, self.inner_dim, bias=False)
        self.k = nn.Linear(d_model, self.inner_dim, bias=False)
        self.v = nn.Linear(d_model, self.inner_dim, bias=False)
        self.o = nn.Linear(self.inner_dim, d_model, bias=False)
        self.relative_attention_num_buckets = relative_attention_num_buckets
        self.has_relative_attention_bias = has_relative_attention_bias
        if has_relative_attention_bias:
            self.relative_attention_bias = nn.Embedding(relative_attention_num_buckets, n_heads)
        # Mesh TF initialisation: the missing 1/sqrt(d_kv) lives in the q weights
        nn.init.normal_(self.q.weight, mean=0.0, std=(d_model * d_kv) ** -0.5)

    @staticmethod
    def _relative_position_bucket(relative_position, num_buckets=32, max_distance=128):
        num_buckets //= 2
        ret = (relative_position > 0).to(torch.long) * num_buckets
        n = torch.abs(relative_position)
        max_exact = num_buckets // 2
        is_small = n < max_exact
        val_if_large = max_exact + (
            torch.log(n.float() / max_exact + 1e-6) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        ).to(torch.long)
        val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
        return ret + torch.where(is_small, n, val_if_large)

    def compute_bias(self, query_length: int, key_length: int, device) -> torch.Tensor:
        context_position = torch.arange(query_length, dtype=torch.long, device=device)[:, None]
        memory_position = torch.arange(key_length, dtype=torch.long, device=device)[None, :]
        buckets = self._relative_position_bucket(memory_position - context_position, self.relative_attention_num_buckets)
        values = self.relative_attention_bias(buckets)  # (q, k, heads)
        return values.permute([2, 0, 1]).unsqueeze(0)  # (1, heads, q, k)

    def forward(self, hidden_states, mask=None, key_value_states=None, position_bias=None):
        batch_size, seq_length = hidden_states.shape[:2]
        kv = hidden_states if key_value_states is None else key_value_states

        def shape(states):
            return states.view(batch_size, -1, self.n_heads, self.key_value_proj_dim).transpose(1, 2)

        query_states = shape(self.q(hidden_states))  # (B, H, L, d_kv)
        key_states = shape(self.k(kv))
        value_states = shape(self.v(kv))

        scores = torch.matmul(query_states, key_states.transpose(3, 2))  # (B, H, L, S)
        if position_bias is None:
            position_bias = self.compute_bias(seq_length, key_states.shape[2], scores.device)
            if mask is not None:
                position_bias = position_bias + mask  # extended additive mask
        scores += position_bias
        attn_weights = F.softmax(scores.float(), dim=-1).type_as(scores)
        attn_output = torch.matmul(attn_weights, value_states).transpose(1, 2).contiguous()
        return self.o(attn_output.view(batch_size, -1, self.inner_dim)), position_bias
