# case: b20-12-mask
# modelled-on: Average-Recsys-Enjoyer/SasRec https://github.com/Average-Recsys-Enjoyer/SasRec/commit/b4c9dc39f825eabcc94488ffe0bb307012aa56db
# label: buggy
# class: real-bug
# pattern: a student SASRec on nn.TransformerEncoderLayer (sequence-first): the causal mask is built once in __init__ as (triu(ones(max_len, max_len)) == 0), True strictly below the diagonal, and passed positionally as the layer's src_mask together with the key padding mask from the dataset (data.py: histories left-padded with 0, source == 0, True at padding)
# why: buggy: a boolean src_mask of nn.TransformerEncoderLayer is True where attention is NOT allowed, so True below the diagonal hides every earlier item and lets each position attend only to itself and the later items of the history, the next-item targets included; the mask was written in the keep convention (True = may attend) of a masked_fill(mask == 0) helper; the key padding mask has the right polarity; no fix exists in the repository
# source: https://github.com/Average-Recsys-Enjoyer/SasRec https://github.com/Average-Recsys-Enjoyer/SasRec/commit/b4c9dc39f825eabcc94488ffe0bb307012aa56db model.py
import torch
import torch.nn as nn


class SasRec(nn.Module):
    def __init__(self, n_items, max_len, embed_size=50, shared_embed=True, dropout=0.1, blocks=2, device="cuda:0"):
        super().__init__()
        self.item_embed = nn.Embedding(n_items, embed_size)
        self.item_embed_prediction = self.item_embed if shared_embed else nn.Embedding(n_items, embed_size)
        self.pos_embed = nn.Parameter(torch.normal(0, 1, (max_len, embed_size)))
        self.subsequent_mask = (torch.triu(torch.ones((max_len, max_len))) == 0).to(device)
        self.encoder_layer = nn.TransformerEncoderLayer(d_model=embed_size, nhead=1, dim_feedforward=embed_size, dropout=dropout)

    def forward(self, sequence, positive, negative, padding_mask):
        # sequence: (batch, max_len) item ids; padding_mask: (batch, max_len), True at padding
        e = self.item_embed(sequence) + self.pos_embed  # batch, max_len, embed
        e = e.permute(1, 0, 2)  # max_len, batch, embed
        hidden = self.encoder_layer(e, self.subsequent_mask, padding_mask)  # expect: ATT002
        pos_embed = self.item_embed(positive) if positive is not None else None
        neg_embed = self.item_embed(negative) if negative is not None else None
        return hidden.permute(1, 0, 2), pos_embed, neg_embed
