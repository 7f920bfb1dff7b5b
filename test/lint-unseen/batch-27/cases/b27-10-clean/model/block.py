import torch.nn as nn

from model.multihead_attention import MultiHeadCausalSelfAttention


class TransformerBlock(nn.Module):
    def __init__(self, embed_dim, num_heads, max_context=1024, dropout=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(embed_dim)
        self.attn = MultiHeadCausalSelfAttention(embed_dim, num_heads, max_context, dropout)
        self.ln2 = nn.LayerNorm(embed_dim)
        self.mlp = nn.Sequential(nn.Linear(embed_dim, 4 * embed_dim), nn.GELU(), nn.Linear(4 * embed_dim, embed_dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))
