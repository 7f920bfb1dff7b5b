# case: mask-mha-float-tril-additive
# modelled-on: pytorch/pytorch https://github.com/pytorch/pytorch/issues/21518
# label: buggy
# pattern: a causal self-attention block for a sequential recommender passes torch.tril(torch.ones(T, T)) -- a float "keep" mask -- as nn.MultiheadAttention's attn_mask
# why: a float attn_mask is added to the scores, so past positions get +1 and future positions +0; nothing is blocked and the model sees the future
import torch
import torch.nn as nn


class PointWiseFeedForward(nn.Module):
    def __init__(self, hidden_units: int, dropout_rate: float):
        super().__init__()
        self.conv1 = nn.Conv1d(hidden_units, hidden_units, kernel_size=1)
        self.conv2 = nn.Conv1d(hidden_units, hidden_units, kernel_size=1)
        self.dropout = nn.Dropout(p=dropout_rate)
        self.relu = nn.ReLU()

    def forward(self, inputs):
        outputs = self.dropout(self.conv2(self.relu(self.dropout(self.conv1(inputs.transpose(-1, -2))))))
        return outputs.transpose(-1, -2) + inputs


class SelfAttentiveBlock(nn.Module):
    def __init__(self, hidden_units: int, num_heads: int, dropout_rate: float):
        super().__init__()
        self.attn_layernorm = nn.LayerNorm(hidden_units, eps=1e-8)
        self.attn = nn.MultiheadAttention(hidden_units, num_heads, dropout_rate)
        self.fwd_layernorm = nn.LayerNorm(hidden_units, eps=1e-8)
        self.fwd = PointWiseFeedForward(hidden_units, dropout_rate)

    def forward(self, seqs: torch.Tensor) -> torch.Tensor:
        # seqs: (B, T, hidden)
        tl = seqs.shape[1]
        attention_mask = torch.tril(torch.ones((tl, tl), device=seqs.device))  # 1 = may attend
        seqs = seqs.transpose(0, 1)  # (T, B, hidden)
        q = self.attn_layernorm(seqs)
        mha_outputs, _ = self.attn(
            q, seqs, seqs,
            attn_mask=attention_mask,  # expect: ATT002
        )
        seqs = (q + mha_outputs).transpose(0, 1)
        return self.fwd(self.fwd_layernorm(seqs))
