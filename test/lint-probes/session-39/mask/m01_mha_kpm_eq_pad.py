import torch
import torch.nn as nn

PAD = 0


class Encoder(nn.Module):
    def __init__(self, vocab, d=256, h=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, tokens):  # tokens: (B, S)
        x = self.emb(tokens)  # (B, S, d)
        key_padding_mask = tokens == PAD  # (B, S) True at padding: MHA ignores True
        out, _ = self.attn(x, x, x, key_padding_mask=key_padding_mask)
        return out
