# case: mask-translation-keep-src-kpm
# modelled-on: mlwithme/TransformerTranslation https://github.com/mlwithme/TransformerTranslation/issues/2
# label: buggy
# pattern: a translation model built on nn.Transformer where the padding mask is made as (src != PAD_IDX), the "keep" polarity used by the tutorial's examples, and passed as src/memory_key_padding_mask
# why: nn.Transformer's *_key_padding_mask ignores True positions, so every real source token is hidden from the encoder and from cross attention while the pads are attended
import math

import torch
import torch.nn as nn

PAD_IDX = 1


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(1))  # (max_len, 1, d_model)

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(0)])


class TranslationModel(nn.Module):
    def __init__(self, src_vocab: int, tgt_vocab: int, d_model: int = 512, nhead: int = 8, layers: int = 6):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers)
        self.generator = nn.Linear(d_model, tgt_vocab)
        self.d_model = d_model

    def forward(self, src, tgt):
        # src: (S, B); tgt: (T, B) -- time-first like nn.Transformer's default
        src_padding_mask = (src != PAD_IDX).transpose(0, 1)  # (B, S), True at real tokens
        tgt_padding_mask = (tgt != PAD_IDX).transpose(0, 1)  # (B, T)
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(0)).to(tgt.device)
        src_emb = self.pos(self.src_embed(src) * math.sqrt(self.d_model))
        tgt_emb = self.pos(self.tgt_embed(tgt) * math.sqrt(self.d_model))
        outs = self.transformer(
            src_emb,
            tgt_emb,
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_padding_mask,  # expect: ATT002
            tgt_key_padding_mask=tgt_padding_mask,  # expect: ATT002
            memory_key_padding_mask=src_padding_mask,  # expect: ATT002
        )
        return self.generator(outs)
