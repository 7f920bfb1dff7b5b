# case: t44ee-03-clean
# modelled-on: liuyankai2001/translation-transformer https://github.com/liuyankai2001/translation-transformer/commit/306b74a16f9ef88dfb2b345ecb774c0feeda4873
# label: correct
# class: clean
# pattern: a Chinese-English translation model around `nn.Transformer(batch_first=True)`: `encode`/`decode` take the key padding masks and the target mask as parameters; the training step and the greedy decoder (another file) build them as `ids == padding_idx` (True at padding) and `nn.Transformer.generate_square_subsequent_mask(T)` (0 on and below the diagonal, -inf above), rebuilt for the growing prefix at every decoding step, with no cache
# why: correct: PyTorch's `*_key_padding_mask` wants True at the positions to ignore, which `ids == pad` is; the square subsequent mask is PyTorch's own additive causal mask; the greedy loop re-encodes the whole prefix each step, so the full-size causal mask is right
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/liuyankai2001/translation-transformer https://github.com/liuyankai2001/translation-transformer/commit/306b74a16f9ef88dfb2b345ecb774c0feeda4873 src/model.py
import math

import torch
from torch import nn

D_MODEL = 128
HEADS = 4
LAYERS = 2


class SinusoidTable(nn.Module):
    def __init__(self, d, max_len=100):
        super().__init__()
        table = torch.zeros(max_len, d)
        for p in range(max_len):
            for i in range(0, d, 2):
                table[p, i] = math.sin(p / math.pow(10000.0, i / d))
                table[p, i + 1] = math.cos(p / math.pow(10000.0, i / d))
        self.register_buffer("table", table)

    def forward(self, x):
        return x + self.table[: x.shape[1]]


class Translator(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, src_pad, tgt_pad):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, D_MODEL, padding_idx=src_pad)
        self.tgt_emb = nn.Embedding(tgt_vocab, D_MODEL, padding_idx=tgt_pad)
        self.pos = SinusoidTable(D_MODEL)
        self.core = nn.Transformer(
            d_model=D_MODEL, nhead=HEADS, num_encoder_layers=LAYERS, num_decoder_layers=LAYERS, batch_first=True
        )
        self.head = nn.Linear(D_MODEL, tgt_vocab)

    def encode(self, src, src_pad_mask):
        return self.core.encoder(src=self.pos(self.src_emb(src)), src_key_padding_mask=src_pad_mask)

    def decode(self, tgt, memory, tgt_mask, memory_pad_mask, tgt_pad_mask):
        out = self.core.decoder(
            tgt=self.pos(self.tgt_emb(tgt)),
            memory=memory,
            tgt_mask=tgt_mask,
            tgt_key_padding_mask=tgt_pad_mask,
            memory_key_padding_mask=memory_pad_mask,
        )
        return self.head(out)

    def forward(self, src, tgt, src_pad_mask, tgt_pad_mask, tgt_mask):
        memory = self.encode(src, src_pad_mask)
        return self.decode(tgt, memory, tgt_mask, src_pad_mask, tgt_pad_mask)
