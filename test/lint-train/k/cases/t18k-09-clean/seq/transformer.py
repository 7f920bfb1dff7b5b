# case: t18k-09-clean
# modelled-on: khanrc/pt.seq2seq https://github.com/khanrc/pt.seq2seq/commit/54dcd23112d452b856e4f8000cf697d352cfec05
# label: correct
# class: clean
# pattern: a seq2seq transformer whose own multi-head attention (ops.py) fills masked_fill_(mask == 0, -1e10) on a head-unsqueezed mask; the model builds the source mask as (src != pad).unsqueeze(1), the target mask as the AND of (dec_in != pad).unsqueeze(1) and a pre-built uint8 tril "left-only" mask, and in free-running decoding slices the left-only mask to the current length; a comment in layers.py warns that nn.MultiheadAttention would want the pad mask the other way round
# why: correct: every mask is a keep mask (1 = attend) and the attention hides where it is 0; the AND of the padding keep mask and the tril keep mask is their intersection; -1e10 is finite because the model trains in float32 (no autocast, no half()), and the diagonal and the first source token keep every row partly visible; the comment is about the commented-out nn.MultiheadAttention, whose key_padding_mask means the opposite, not about this attention
# looks-like: ATT002, ATT007
# source: https://github.com/khanrc/pt.seq2seq https://github.com/khanrc/pt.seq2seq/commit/54dcd23112d452b856e4f8000cf697d352cfec05 models/transformer/transformer.py
import torch
import torch.nn as nn

from .layers import DecoderLayer, EncoderLayer

SOS_IDX = 2


class Transformer(nn.Module):
    def __init__(self, src_words, tgt_words, d_model=512, d_ff=2048, n_heads=8, layers=6, max_len=100, pad_idx=0):
        super().__init__()
        self.pad_idx, self.max_len = pad_idx, max_len
        self.src_emb = nn.Embedding(src_words, d_model)
        self.tgt_emb = nn.Embedding(tgt_words, d_model)
        self.encoder = nn.ModuleList([EncoderLayer(d_model, d_ff, n_heads, 0.1) for _ in range(layers)])
        self.decoder = nn.ModuleList([DecoderLayer(d_model, d_ff, n_heads, 0.1) for _ in range(layers)])
        self.readout = nn.Linear(d_model, tgt_words)
        t = max_len + 1
        self.register_buffer("left_only_mask", torch.ones(t, t, dtype=torch.uint8).tril().unsqueeze(0))

    def decode(self, enc_out, dec_in, src_mask, tgt_mask):
        x = self.tgt_emb(dec_in)
        for layer in self.decoder:
            x, w = layer(enc_out, x, src_mask, tgt_mask)
        return self.readout(x), w

    def forward(self, src, tgt=None, teacher_forcing: bool = True):
        src_mask = (src != self.pad_idx).unsqueeze(1)  # [B, 1, S]
        x = self.src_emb(src)
        for layer in self.encoder:
            x = layer(x, src_mask)
        if teacher_forcing and tgt is not None:
            dec_in = tgt[:, :-1]
            tgt_pad_mask = (dec_in != self.pad_idx).unsqueeze(1)  # [B, 1, T]
            t = dec_in.size(-1)
            tgt_mask = tgt_pad_mask & self.left_only_mask[:, :t, :t]  # [B, T, T]
            return self.decode(x, dec_in, src_mask, tgt_mask)
        dec_in = torch.full([src.size(0), 1], SOS_IDX, dtype=torch.long, device=src.device)
        for i in range(self.max_len):
            tgt_mask = self.left_only_mask[:, : i + 1, : i + 1]
            out, w = self.decode(x, dec_in, src_mask, tgt_mask)
            dec_in = torch.cat([dec_in, out[:, -1].argmax(-1, keepdim=True)], dim=-1)
        return out, w
