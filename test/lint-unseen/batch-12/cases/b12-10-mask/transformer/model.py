import torch
import torch.nn as nn

from transformer.attention import MultiHeadAttention
from transformer.masks import generate_square_subsequent_mask, make_padding_mask


class TinyTranslator(nn.Module):
    def __init__(self, vocab: int, d_model: int = 256, num_heads: int = 8):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.enc_attn = MultiHeadAttention(d_model, num_heads)
        self.dec_self = MultiHeadAttention(d_model, num_heads)
        self.dec_cross = MultiHeadAttention(d_model, num_heads)
        self.out = nn.Linear(d_model, vocab)

    def encode(self, src, src_mask):
        x = self.embed(src)
        return x + self.enc_attn(x, x, x, src_mask)[0]

    def decode(self, tgt, memory, src_mask, tgt_mask):
        y = self.embed(tgt)
        y = y + self.dec_self(y, y, y, tgt_mask)[0]
        return y + self.dec_cross(y, memory, memory, src_mask)[0]

    @torch.no_grad()
    def generate(self, src, max_len: int = 50, start_token: int = 1, end_token: int = 2):
        batch_size = src.size(0)
        src_mask = make_padding_mask(src)
        memory = self.encode(src, src_mask)
        tgt = torch.full((batch_size, 1), start_token, dtype=torch.long, device=src.device)
        for _ in range(max_len - 1):
            tgt_mask = generate_square_subsequent_mask(tgt.size(1)).to(src.device)
            tgt_mask = tgt_mask.unsqueeze(0).expand(batch_size, -1, -1)
            logits = self.out(self.decode(tgt, memory, src_mask, tgt_mask))
            next_token = logits[:, -1].argmax(dim=-1, keepdim=True)
            tgt = torch.cat([tgt, next_token], dim=1)
            if (next_token == end_token).all():
                break
        return tgt
