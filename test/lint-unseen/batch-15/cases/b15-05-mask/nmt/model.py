from torch import nn

from nmt.attention import HeadsAttention


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.attn = HeadsAttention(dim, heads)
        self.norm1 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, ff), nn.ReLU(), nn.Linear(ff, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, src_mask):
        x = self.norm1(x + self.attn(x, x, src_mask))
        return self.norm2(x + self.ffn(x))


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads, ff):
        super().__init__()
        self.self_attn = HeadsAttention(dim, heads)
        self.cross_attn = HeadsAttention(dim, heads)
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(3)])
        self.ffn = nn.Sequential(nn.Linear(dim, ff), nn.ReLU(), nn.Linear(ff, dim))

    def forward(self, y, memory, src_mask, tgt_mask):
        y = self.norms[0](y + self.self_attn(y, y, tgt_mask))
        y = self.norms[1](y + self.cross_attn(y, memory, src_mask))
        return self.norms[2](y + self.ffn(y))


class Translator(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, dim=512, heads=8, ff=2048, layers=6):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, dim)
        self.tgt_emb = nn.Embedding(tgt_vocab, dim)
        self.encoder = nn.ModuleList([EncoderLayer(dim, heads, ff) for _ in range(layers)])
        self.decoder = nn.ModuleList([DecoderLayer(dim, heads, ff) for _ in range(layers)])
        self.out = nn.Linear(dim, tgt_vocab)

    def forward(self, src, tgt, src_mask, tgt_mask):
        memory = self.src_emb(src)
        for layer in self.encoder:
            memory = layer(memory, src_mask)
        y = self.tgt_emb(tgt)
        for layer in self.decoder:
            y = layer(y, memory, src_mask, tgt_mask)
        return self.out(y)
