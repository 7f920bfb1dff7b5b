import torch
import torch.nn as nn


class T5Attention(nn.Module):
    def __init__(self, d_model, d_kv, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.key_value_proj_dim = d_kv
        self.inner_dim = n_heads * d_kv
        self.q = nn.Linear(d_model, self.inner_dim, bias=False)
        self.k = nn.Linear(d_model, self.inner_dim, bias=False)
        self.v = nn.Linear(d_model, self.inner_dim, bias=False)
        self.o = nn.Linear(self.inner_dim, d_model, bias=False)

    def forward(self, hidden_states, position_bias):
        bs = hidden_states.size(0)

        def shape(t):
            return t.view(bs, -1, self.n_heads, self.key_value_proj_dim).transpose(1, 2)

        q = shape(self.q(hidden_states))
        k = shape(self.k(hidden_states))
        v = shape(self.v(hidden_states))
        scores = torch.matmul(q, k.transpose(3, 2))  # T5 folds the scale into init
        scores += position_bias
        attn_weights = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.matmul(attn_weights, v)
        return self.o(out.transpose(1, 2).contiguous().view(bs, -1, self.inner_dim))
