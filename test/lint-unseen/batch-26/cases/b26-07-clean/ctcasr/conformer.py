# case: b26-07-clean
# modelled-on: antonioroger2/Conformer-ASR https://github.com/antonioroger2/Conformer-ASR/commit/e4e916f11fd5da7a90419edff4af244b763a7231
# label: correct
# class: clean
# pattern: a CTC Conformer: the collate module pads log-mel features and returns frame counts divided (ceil) by the front end's downsampling factor from a settings module; the encoder builds a keep mask arange(T') < lengths[:, None] after downsampling and passes it to every block; the self-attention divides q @ k.transpose(-2, -1) by math.sqrt(d_k) with d_k = d_model // n_head, unsqueezes the (B, T') mask twice, expands it to (B, H, T', T') and calls scores.masked_fill(~expanded_mask, -1e4) before softmax(dim=-1)
# why: correct: the mask is True on real (downsampled) frames, so ~mask is True exactly on the padded keys; -1e4 is far below any real logit of the fp32 scores (and still finite in fp16), so those keys get zero weight; padded query rows keep finite scores and are ignored by the CTC loss through the same lengths; d_k is the per-head width
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/antonioroger2/Conformer-ASR https://github.com/antonioroger2/Conformer-ASR/commit/e4e916f11fd5da7a90419edff4af244b763a7231 ASR/models/conformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from ctcasr.settings import cfg


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_head, dropout=0.1):
        super().__init__()
        self.d_model, self.n_head = d_model, n_head
        self.d_k = d_model // n_head
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        b, t = x.size()[:2]
        q = self.w_q(x).view(b, t, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(b, t, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(b, t, self.n_head, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            expanded_mask = mask.unsqueeze(1).unsqueeze(2)
            expanded_mask = expanded_mask.expand(b, self.n_head, t, t)
            scores = scores.masked_fill(~expanded_mask, -1e4)
        attn = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(attn, v).transpose(1, 2).contiguous().view(b, t, self.d_model)
        return self.w_o(ctx)


class ConformerEncoder(nn.Module):
    def __init__(self, blocks: nn.ModuleList, front_end: nn.Module):
        super().__init__()
        self.front_end = front_end
        self.blocks = blocks
        self.norm = nn.LayerNorm(cfg.hid_dim)
        self.classifier = nn.Linear(cfg.hid_dim, cfg.vocab_size)

    @staticmethod
    def length_mask(lengths, max_len):
        mask = torch.arange(max_len, device=lengths.device).expand(lengths.size(0), max_len) < lengths.unsqueeze(1)
        return mask.bool()

    def forward(self, feats, lengths=None):
        x = self.front_end(feats)  # (B, T', D)
        mask = None if lengths is None else self.length_mask(lengths, x.size(1))
        for block in self.blocks:
            x = block(x, mask)
        return F.log_softmax(self.classifier(self.norm(x)), dim=-1)
