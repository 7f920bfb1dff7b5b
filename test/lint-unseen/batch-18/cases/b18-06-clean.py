# case: b18-06-clean
# modelled-on: konverner/ocr-transformer https://github.com/konverner/ocr-transformer/commit/e6c2ed9cc33eb5b6b121ab85ab87ec44380a6e42
# label: correct
# class: clean
# pattern: a handwriting-OCR model, CNN backbone into nn.Transformer in its default sequence-first layout: the target keys' padding mask is built by a helper as (tokens == 0).transpose(0, 1), turning the (L, B) token tensor into the (B, L) mask nn.Transformer wants; the target causal mask is a float triu(ones, 1) with masked_fill(mask == 1, -inf), cached on the module and rebuilt when the length changes; images are resized to one width, so the source has no padding mask
# why: correct: tgt_key_padding_mask is True on padding tokens (pad id 0), which is nn.Transformer's ignore convention, and the transpose gives it the batch-first shape the API requires even though the tokens are sequence-first; the float mask is 0 on and below the diagonal and -inf above it, an additive mask; the diagonal is always visible
# looks-like: ATT002, ATT007
# source: https://github.com/konverner/ocr-transformer https://github.com/konverner/ocr-transformer/commit/e6c2ed9cc33eb5b6b121ab85ab87ec44380a6e42 src/models/model2.py
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(1))  # (L, 1, D)

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(0)])


class OCRTransformer(nn.Module):
    def __init__(self, n_tokens, hidden=512, enc_layers=2, dec_layers=2, nhead=4):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 64, 3, padding=1), nn.BatchNorm2d(64), nn.LeakyReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 256, 3, stride=(2, 1), padding=1), nn.BatchNorm2d(256), nn.LeakyReLU(),
            nn.Conv2d(256, hidden, (8, 1)), nn.BatchNorm2d(hidden), nn.LeakyReLU(),
        )
        self.pos_enc = PositionalEncoding(hidden)
        self.embed = nn.Embedding(n_tokens, hidden)
        self.pos_dec = PositionalEncoding(hidden)
        self.transformer = nn.Transformer(hidden, nhead, enc_layers, dec_layers, 4 * hidden, 0.1)
        self.fc_out = nn.Linear(hidden, n_tokens)
        self.trg_mask = None

    def square_subsequent_mask(self, size, device):
        mask = torch.triu(torch.ones(size, size, device=device), 1)
        return mask.masked_fill(mask == 1, float("-inf"))

    def pad_mask(self, tokens):
        return (tokens == 0).transpose(0, 1)

    def features(self, images):
        x = self.backbone(images)  # (B, C, 1, W)
        return x.permute(0, 3, 1, 2).flatten(2).permute(1, 0, 2)  # (W, B, C)

    def forward(self, images, trg):
        """images (B, 1, 32, W); trg (L, B) token ids, 0 = padding."""
        if self.trg_mask is None or self.trg_mask.size(0) != len(trg):
            self.trg_mask = self.square_subsequent_mask(len(trg), trg.device)
        src = self.pos_enc(self.features(images))
        trg_pad = self.pad_mask(trg)
        out = self.transformer(
            src,
            self.pos_dec(self.embed(trg)),
            tgt_mask=self.trg_mask,
            tgt_key_padding_mask=trg_pad,
        )
        return self.fc_out(out)
