import torch
import torch.nn as nn

from .attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])

    def forward(self, x, memory, tgt_mask=None, src_mask=None):
        x = self.norms[0](x + self.self_attn(x, x, x, tgt_mask))
        x = self.norms[1](x + self.cross_attn(x, memory, memory, src_mask))
        return self.norms[2](x + self.ff(x))


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder_layers, embed, pad_id, vocab, d_model):
        super().__init__()
        self.encoder = encoder
        self.layers = nn.ModuleList(decoder_layers)
        self.embed = embed
        self.pad_id = pad_id
        self.out = nn.Linear(d_model, vocab)

    def build_masks(self, src, tgt):
        """Masks for the attention layers. True marks a position that must be ignored."""
        # (batch, 1, 1, src_len): True at padding
        src_mask = (src == self.pad_id).unsqueeze(1).unsqueeze(2)
        # (batch, 1, tgt_len): True at padding
        tgt_pad = (tgt == self.pad_id).unsqueeze(1)
        n = tgt.size(1)
        # (1, tgt_len, tgt_len): True above the diagonal (future positions)
        future = torch.triu(torch.ones(1, n, n, device=tgt.device), diagonal=1).bool()
        tgt_mask = tgt_pad.unsqueeze(1) | future
        return src_mask, tgt_mask

    def forward(self, src, tgt):
        src_mask, tgt_mask = self.build_masks(src, tgt)
        memory = self.encoder(self.embed(src), src_mask)
        x = self.embed(tgt)
        for layer in self.layers:
            x = layer(x, memory, tgt_mask, src_mask)
        return self.out(x)
