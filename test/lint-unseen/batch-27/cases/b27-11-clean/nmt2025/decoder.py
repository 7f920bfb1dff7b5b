import torch.nn as nn
import torch.nn.functional as F

from nmt2025.attention import MultiHeadAttention
from nmt2025.masks import create_mask


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim, num_heads, ffn_hidden_dim, dropout):
        super().__init__()
        self.self_attn = MultiHeadAttention(embed_dim, num_heads, attn_dropout=dropout)
        self.cross_attn = MultiHeadAttention(embed_dim, num_heads, attn_dropout=dropout)
        self.linear1 = nn.Linear(embed_dim, ffn_hidden_dim)
        self.linear2 = nn.Linear(ffn_hidden_dim, embed_dim)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(embed_dim), nn.LayerNorm(embed_dim), nn.LayerNorm(embed_dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, memory, tgt_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None):
        out, _ = self.self_attn(x, x, x, attn_mask=tgt_mask, key_padding_mask=tgt_key_padding_mask)
        x = self.norm1(x + self.drop(out))
        out, _ = self.cross_attn(x, memory, memory, attn_mask=None, key_padding_mask=memory_key_padding_mask)
        x = self.norm2(x + self.drop(out))
        return self.norm3(x + self.drop(self.linear2(F.relu(self.linear1(x)))))


def decode_step(layers, tgt_emb, memory, src, tgt, pad_idx):
    _, tgt_mask, src_pad, tgt_pad = create_mask(src, tgt, pad_idx)
    x = tgt_emb
    for layer in layers:
        x = layer(x, memory, tgt_mask=tgt_mask, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
    return x
