# case: b12-01-clean
# modelled-on: seagochen/transformer-pytorch https://github.com/seagochen/transformer-pytorch/commit/143a5a7760063b5a93a6182bda05373560f3d885
# label: correct
# class: clean
# pattern: an encoder-decoder whose model module builds the masks in the "1 = hidden" convention (source padding as src == pad_idx, the target's padding OR'd with triu(ones, diagonal=1) as bools) and passes them to a multi-head attention module in another file, which fills masked_fill(mask == 1, -inf) into scores divided by self.scale = sqrt(d_k) set in __init__
# why: correct: the masks mark the positions to hide and the attention module hides exactly the positions equal to 1, so padding and future keys get -inf; the scale is the per-head width (d_model // n_heads) and the softmax is over the key axis; every row keeps at least the first (non-padding) position, so no row is all -inf; what a naive linter could misread: ATT002 (masked_fill on mask == 1 rather than == 0, a pad mask built with ==), ATT004 (a scale stored in __init__ and divided), ATT007 (-inf fill)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/seagochen/transformer-pytorch https://github.com/seagochen/transformer-pytorch/commit/143a5a7760063b5a93a6182bda05373560f3d885 transformer/models/transformer.py
import torch
import torch.nn as nn

from attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads)
        self.cross_attn = MultiHeadAttention(d_model, n_heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, memory, tgt_mask, src_mask):
        x = self.norm1(x + self.self_attn(x, x, x, tgt_mask))
        return self.norm2(x + self.cross_attn(x, memory, memory, src_mask))


class Seq2Seq(nn.Module):
    def __init__(self, vocab: int, d_model: int = 256, n_heads: int = 8, pad_idx: int = 0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.enc_attn = MultiHeadAttention(d_model, n_heads)
        self.dec = DecoderLayer(d_model, n_heads)
        self.out = nn.Linear(d_model, vocab)

    def make_src_mask(self, src: torch.Tensor) -> torch.Tensor:
        # True at padding: (B, 1, 1, S)
        return (src == self.pad_idx).unsqueeze(1).unsqueeze(2)

    def make_tgt_mask(self, tgt: torch.Tensor) -> torch.Tensor:
        t = tgt.size(1)
        pad = (tgt == self.pad_idx).unsqueeze(1).unsqueeze(2)
        future = torch.triu(torch.ones(t, t, device=tgt.device), diagonal=1).bool()
        return pad | future.unsqueeze(0).unsqueeze(0)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        src_mask = self.make_src_mask(src)
        tgt_mask = self.make_tgt_mask(tgt)
        s = self.embed(src)
        memory = s + self.enc_attn(s, s, s, src_mask)
        y = self.dec(self.embed(tgt), memory, tgt_mask, src_mask)
        return self.out(y)
