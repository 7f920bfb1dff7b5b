import torch
import torch.nn as nn


class T5DecoderSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, d_kv):
        super().__init__()
        self.n_heads, self.d_kv = n_heads, d_kv
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)

    def forward(self, hidden, position_bias, past_key_value=None):
        B, T, _ = hidden.shape
        sh = lambda t: t.view(B, -1, self.n_heads, self.d_kv).transpose(1, 2)
        q, k, v = sh(self.q(hidden)), sh(self.k(hidden)), sh(self.v(hidden))
        if past_key_value is not None:
            k = torch.cat([past_key_value[0], k], dim=2)
            v = torch.cat([past_key_value[1], v], dim=2)
        S = k.shape[2]
        causal = torch.tril(torch.ones(S, S, dtype=torch.bool, device=hidden.device))[-T:]
        scores = q @ k.transpose(3, 2) + position_bias[:, :, -T:, :]
        scores = scores.masked_fill(~causal, torch.finfo(scores.dtype).min)
        w = scores.float().softmax(-1).type_as(scores)
        return (w @ v).transpose(1, 2).reshape(B, T, -1), (k, v)
