import torch.nn as nn

from modelling.attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, hidden_dim: int, num_heads: int):
        super().__init__()
        self.self_attn = MultiHeadAttention(hidden_dim, num_heads, mask_future=True)
        self.cross_attn = MultiHeadAttention(hidden_dim, num_heads)
        self.n1, self.n2 = nn.LayerNorm(hidden_dim), nn.LayerNorm(hidden_dim)

    def forward(self, x, memory, encoder_attention_mask, attention_mask):
        # both masks come from the tokenizer: 1 = real token, 0 = padding
        x = self.n1(x + self.self_attn(x, x, x, attention_mask))
        return self.n2(x + self.cross_attn(x, memory, memory, encoder_attention_mask))
