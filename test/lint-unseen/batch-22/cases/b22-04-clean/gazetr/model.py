# case: b22-04-clean
# modelled-on: Vera19970714/trajectory-transformer https://github.com/Vera19970714/trajectory-transformer/commit/861a6a4b43ec861b8f6befb6818cf1da427c755f
# label: correct
# class: clean
# pattern: a gaze-scanpath predictor on a sequence-first nn.Transformer: masks.py builds the decoder's causal mask as a float mask from (triu(ones) == 1).transpose(0, 1) with masked_fill(allowed == 0, -inf) and masked_fill(allowed == 1, 0.0), an all-False boolean src_mask, and (S, B) == PAD padding masks transposed to (B, S); the training step (train_step.py) calls create_mask and the model passes the source padding mask again as memory_key_padding_mask
# why: correct: the transposed upper triangle is the lower triangle (True where a query may look), so the float mask is 0 on the past and -inf on the future, the additive form nn.Transformer expects; an all-False boolean src_mask hides nothing; == PAD is True at the padding, which is what key_padding_mask hides, and the transpose puts the batch first as nn.Transformer wants for that argument
# looks-like: ATT002, ATT007
# source: https://github.com/Vera19970714/trajectory-transformer https://github.com/Vera19970714/trajectory-transformer/commit/861a6a4b43ec861b8f6befb6818cf1da427c755f src/model/models.py
import math

import torch
import torch.nn as nn
from torch import Tensor


class PositionalEncoding(nn.Module):
    def __init__(self, emb_size: int, dropout: float, maxlen: int = 500):
        super().__init__()
        den = torch.exp(-torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pe = torch.zeros((maxlen, emb_size))
        pe[:, 0::2] = torch.sin(pos * den)
        pe[:, 1::2] = torch.cos(pos * den)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("pe", pe.unsqueeze(-2))

    def forward(self, x: Tensor):
        return self.dropout(x + self.pe[: x.size(0), :])


class ScanpathTransformer(nn.Module):
    def __init__(self, n_enc: int, n_dec: int, emb_size: int, nhead: int, n_targets: int, in_dim: int, ff: int, dropout: float = 0.1):
        super().__init__()
        self.transformer = nn.Transformer(
            d_model=emb_size, nhead=nhead, num_encoder_layers=n_enc, num_decoder_layers=n_dec, dim_feedforward=ff, dropout=dropout
        )
        self.src_proj = nn.Linear(in_dim, emb_size)
        self.tgt_proj = nn.Linear(in_dim, emb_size)
        self.pos = PositionalEncoding(emb_size, dropout)
        self.generator = nn.Linear(emb_size, n_targets)

    def forward(self, src, tgt, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, memory_key_padding_mask):
        src_emb = self.pos(self.src_proj(src))
        tgt_emb = self.pos(self.tgt_proj(tgt))
        outs = self.transformer(
            src_emb, tgt_emb, src_mask, tgt_mask, None, src_padding_mask, tgt_padding_mask, memory_key_padding_mask
        )
        return self.generator(outs)
