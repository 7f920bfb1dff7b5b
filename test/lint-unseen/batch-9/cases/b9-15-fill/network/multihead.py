import torch.nn as nn

from utils.math_utils import *


class MultiHeadAttention(nn.Module):
    def __init__(self, input_dim, embedding_dim, num_heads):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.input_projection_layer = nn.Linear(input_dim, 3 * embedding_dim)
        self.output_projection_layer = nn.Linear(embedding_dim, embedding_dim)
        nn.init.xavier_uniform_(self.input_projection_layer.weight)
        nn.init.xavier_uniform_(self.output_projection_layer.weight)
        self.input_projection_layer.bias.data.fill_(0)
        self.output_projection_layer.bias.data.fill_(0)

    def forward(self, input_batch, mask=None, return_attention=False):
        batch_size, sequence_length, _ = input_batch.size()
        qkv = self.input_projection_layer(input_batch)
        # (batch, seq, heads, 3 * head_dim) -> (batch, heads, seq, 3 * head_dim)
        qkv = qkv.reshape(batch_size, sequence_length, self.num_heads, 3 * self.head_dim).permute(0, 2, 1, 3)
        query, key, value = qkv.chunk(3, dim=3)

        output_value, output_attention = scaled_dot_product(query, key, value, mask)
        output_value = output_value.permute(0, 2, 1, 3).reshape(batch_size, sequence_length, self.embedding_dim)
        output_value = self.output_projection_layer(output_value)
        if return_attention:
            return output_value, output_attention
        return output_value
