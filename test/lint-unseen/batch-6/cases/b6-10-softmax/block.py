import torch.nn as nn

from attention import CausalMultiHeadAttention


class TransformerDecoderBlock(nn.Module):
    def __init__(self, n_heads, block_size, dim, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalMultiHeadAttention(n_heads, block_size, dim, dropout)
        self.ln2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Linear(4 * dim, dim), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, block_size, vocab_size, emb_dim=64, n_heads=2, n_blocks=1):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, emb_dim)
        self.blocks = nn.Sequential(*[TransformerDecoderBlock(n_heads, block_size, emb_dim, 0.1) for _ in range(n_blocks)])
        self.head = nn.Linear(emb_dim, vocab_size)

    def forward(self, idx):
        return self.head(self.blocks(self.tok(idx)))
