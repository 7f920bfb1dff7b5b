import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class BloomAttention(nn.Module):
    def __init__(self, hidden_size, n_head):
        super().__init__()
        self.num_heads = n_head
        self.head_dim = hidden_size // n_head
        self.inv_norm_factor = 1.0 / math.sqrt(self.head_dim)
        self.beta = 1.0
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)
        self.dense = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden_states, alibi, attention_mask):
        batch_size, q_length, _ = hidden_states.shape
        fused = self.query_key_value(hidden_states).view(batch_size, q_length, self.num_heads, 3, self.head_dim)
        query_layer = fused[..., 0, :].transpose(1, 2).reshape(batch_size * self.num_heads, q_length, self.head_dim)
        key_layer = fused[..., 1, :].permute(0, 2, 3, 1).reshape(batch_size * self.num_heads, self.head_dim, q_length)
        value_layer = fused[..., 2, :].transpose(1, 2).reshape(batch_size * self.num_heads, q_length, self.head_dim)
        matmul_result = alibi.baddbmm(batch1=query_layer, batch2=key_layer, beta=self.beta, alpha=self.inv_norm_factor)
        attention_scores = matmul_result.view(batch_size, self.num_heads, q_length, -1)
        attn_weights = torch.masked_fill(attention_scores, attention_mask, torch.finfo(attention_scores.dtype).min)
        attention_probs = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(value_layer.dtype)
        probs = attention_probs.view(batch_size * self.num_heads, q_length, -1)
        context = torch.bmm(probs, value_layer).view(batch_size, self.num_heads, q_length, self.head_dim)
        context = context.permute(0, 2, 1, 3).reshape(batch_size, q_length, -1)
        return self.dense(context)
