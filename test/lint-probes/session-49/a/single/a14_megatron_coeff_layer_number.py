import math
import torch
import torch.nn as nn


class CoreAttention(nn.Module):
    """Time-major [sq, b, np, hn] attention; fp16 scores are kept small by an extra layer-number factor."""

    def __init__(self, hidden_size, num_heads, layer_number, apply_query_key_layer_scaling=True):
        super().__init__()
        self.hidden_size_per_attention_head = hidden_size // num_heads
        self.num_heads = num_heads
        self.layer_number = max(1, layer_number)
        coeff = None
        self.norm_factor = math.sqrt(self.hidden_size_per_attention_head)
        if apply_query_key_layer_scaling:
            coeff = self.layer_number
            self.norm_factor *= coeff
        self.coeff = coeff

    def forward(self, query_layer, key_layer, value_layer, attention_mask):
        sq, b, np_, hn = query_layer.size()
        sk = key_layer.size(0)
        query_layer = query_layer.reshape(sq, b * np_, hn)
        key_layer = key_layer.reshape(sk, b * np_, hn)
        matmul_input_buffer = torch.empty(b * np_, sq, sk, dtype=query_layer.dtype, device=query_layer.device)
        matmul_result = torch.baddbmm(
            matmul_input_buffer,
            query_layer.transpose(0, 1),
            key_layer.transpose(0, 1).transpose(1, 2),
            beta=0.0,
            alpha=(1.0 / self.norm_factor),
        )
        attention_scores = matmul_result.view(b, np_, sq, sk)
        if self.coeff is not None:
            attention_scores = attention_scores * self.coeff
        attention_scores = attention_scores.masked_fill(attention_mask, -10000.0)
        attention_probs = torch.nn.functional.softmax(attention_scores.float(), dim=-1).to(query_layer.dtype)
        value_layer = value_layer.reshape(value_layer.size(0), b * np_, hn)
        context = torch.bmm(attention_probs.view(b * np_, sq, sk), value_layer.transpose(0, 1))
        return context.view(b, np_, sq, hn).permute(2, 0, 1, 3).reshape(sq, b, np_ * hn)
