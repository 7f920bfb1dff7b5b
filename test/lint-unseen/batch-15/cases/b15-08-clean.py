# case: b15-08-clean
# modelled-on: changQiangXia/sasrec-recommender https://github.com/changQiangXia/sasrec-recommender/commit/c50645f5930667e639e13ed36c98924e67fcb419
# label: correct
# class: clean
# pattern: a SASRec next-item recommender on nn.TransformerEncoder (batch_first, pre-LN); to avoid the NaNs its author met when combining src_key_padding_mask with a causal mask, the forward passes only a float causal mask built as torch.triu(torch.full((L, L), -1e9), diagonal=1) through mask=, then zeroes the outputs of padded positions with masked_fill((seqs == 0).unsqueeze(-1), 0.0) and replaces any NaN; scores are dot products of the outputs with item embeddings
# why: correct: nn.TransformerEncoder adds a float mask to the attention logits, so 0 on and below the diagonal and -1e9 above it is a causal mask of the right polarity (bool masks there mean True = blocked, float masks are additive); the masked_fill on the outputs zeroes padded positions after the encoder (not attention weights), and the padding keys are left visible by design (sequences are left-padded with a zero embedding), a documented choice rather than a polarity slip
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/changQiangXia/sasrec-recommender https://github.com/changQiangXia/sasrec-recommender/commit/c50645f5930667e639e13ed36c98924e67fcb419 src/model.py
import torch
import torch.nn as nn


class NextItemModel(nn.Module):
    def __init__(self, num_items, cfg):
        super().__init__()
        self.hidden = cfg.hidden_units
        self.dev = cfg.device
        self.item_emb = nn.Embedding(num_items + 1, cfg.hidden_units, padding_idx=0)
        self.pos_emb = nn.Embedding(cfg.max_seq_len, cfg.hidden_units)
        self.drop = nn.Dropout(p=cfg.dropout)
        layer = nn.TransformerEncoderLayer(
            d_model=cfg.hidden_units,
            nhead=cfg.num_heads,
            dim_feedforward=cfg.hidden_units * 4,
            dropout=cfg.dropout,
            activation="gelu",
            batch_first=True,
            norm_first=True,
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=cfg.num_blocks)
        self.norm = nn.LayerNorm(cfg.hidden_units)

    def forward(self, seqs):
        batch, length = seqs.shape
        x = self.item_emb(seqs)
        pos = torch.arange(length, device=self.dev).unsqueeze(0).repeat(batch, 1)
        x = self.drop(x + self.pos_emb(pos))

        # future positions get -1e9 added to their logits; padding is handled on the outputs
        causal = torch.triu(torch.full((length, length), -1e9, device=self.dev), diagonal=1)
        out = self.norm(self.encoder(x, mask=causal))

        pad = (seqs == 0).unsqueeze(-1)  # (batch, length, 1)
        out = out.masked_fill(pad, 0.0)
        if torch.isnan(out).any():
            out = torch.nan_to_num(out, nan=0.0, posinf=0.0, neginf=0.0)
        return out

    def bpr_loss(self, seqs, pos_items, neg_items):
        h = self.forward(seqs)
        pos = (h * self.item_emb(pos_items)).sum(-1)
        neg = (h * self.item_emb(neg_items)).sum(-1)
        keep = (pos_items != 0).float()
        return -(torch.log(torch.sigmoid(pos - neg) + 1e-24) * keep).sum() / keep.sum()
