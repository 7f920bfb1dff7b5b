import torch.nn as nn

from components.attention_block import MultiHeadAttentionBlock


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttentionBlock(d_model, h, dropout)
        self.cross_attn = MultiHeadAttentionBlock(d_model, h, dropout)
        self.n1, self.n2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, memory, encoder_mask, decoder_mask):
        h = self.n1(x)
        x = x + self.self_attn(h, h, h, decoder_mask)
        h = self.n2(x)
        return x + self.cross_attn(h, memory, memory, encoder_mask)
