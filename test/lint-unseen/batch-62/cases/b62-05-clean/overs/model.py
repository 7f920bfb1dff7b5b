# case: b62-05-clean
# modelled-on: Saranath07/oversight-ai https://github.com/Saranath07/oversight-ai/commit/74ce2f1ff495564138b7873b17d647f3f88a057d
# label: correct
# class: clean
# pattern: an encoder-decoder that predicts the next over of a cricket match ball by ball (a folder: `batching.py` right-pads the window of recent deliveries and the over tokens and builds float keep masks, 1.0 on real positions and 0.0 on padding); the encoder is a batch-first nn.TransformerEncoder given `src_key_padding_mask=(keep == 0)`, except on Apple MPS where the padded rows are zeroed by multiplying the embeddings with the keep mask and no attention mask is passed; the decoder is a batch-first nn.TransformerDecoder with a float causal mask built as `triu(ones, 1)` filled with -inf where it is 1, and key padding masks `(over_keep == 0)` and `(delivery_keep == 0)`; generation re-runs the decoder on the whole prefix (no cache)
# why: correct: nn.Transformer* key padding masks are True where a key is ignored, and the loader's keep masks are 1.0 on real positions, so `== 0` gives the right polarity; the float causal mask has -inf strictly above the diagonal and 0 elsewhere, PyTorch's additive convention for tgt_mask; each generation step rebuilds the mask for the full prefix, so queries and keys always have the same length; the MPS branch zeroes padding embeddings instead of masking (an approximation the original chose for a backend limitation, not a scoring mask)
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/Saranath07/oversight-ai https://github.com/Saranath07/oversight-ai/commit/74ce2f1ff495564138b7873b17d647f3f88a057d cricket/training/cricket_transformer.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoid_table(length: int, dim: int) -> torch.Tensor:
    pos = torch.arange(length, dtype=torch.float).unsqueeze(1)
    freq = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
    table = torch.zeros(length, dim)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table


class DeliveryEncoder(nn.Module):
    def __init__(self, in_dim: int, d_model: int, heads: int, layers: int, d_ff: int, drop: float):
        super().__init__()
        self.d_model = d_model
        self.proj = nn.Linear(in_dim, d_model)
        self.register_buffer("pos", sinusoid_table(1024, d_model), persistent=False)
        block = nn.TransformerEncoderLayer(d_model, heads, d_ff, drop, batch_first=True)
        self.encoder = nn.TransformerEncoder(block, layers)
        self.drop = nn.Dropout(drop)

    def forward(self, deliveries: torch.Tensor, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
        h = self.proj(deliveries) * math.sqrt(self.d_model)
        h = self.drop(h + self.pos[: h.size(1)])
        if keep is None:
            return self.encoder(h)
        if h.device.type == "mps":
            return self.encoder(h * keep.unsqueeze(-1))
        return self.encoder(h, src_key_padding_mask=(keep == 0))


class OverDecoder(nn.Module):
    def __init__(self, vocab: int, ctx_dim: int, d_model: int, heads: int, layers: int, d_ff: int, drop: float):
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab, d_model)
        self.ctx = nn.Linear(ctx_dim, d_model)
        self.register_buffer("pos", sinusoid_table(64, d_model), persistent=False)
        block = nn.TransformerDecoderLayer(d_model, heads, d_ff, drop, batch_first=True)
        self.decoder = nn.TransformerDecoder(block, layers)
        self.out = nn.Linear(d_model, vocab)

    @staticmethod
    def future_mask(n: int, device) -> torch.Tensor:
        upper = torch.triu(torch.ones(n, n, device=device), diagonal=1)
        return upper.masked_fill(upper == 1, float("-inf"))

    def forward(self, tokens, memory, match_context, over_keep=None, delivery_keep=None):
        n = tokens.size(1)
        h = self.embed(tokens) * math.sqrt(self.d_model) + self.pos[:n]
        h = torch.cat([h[:, :1] + self.ctx(match_context).unsqueeze(1), h[:, 1:]], dim=1)
        out = self.decoder(
            h,
            memory,
            tgt_mask=self.future_mask(n, tokens.device),
            tgt_key_padding_mask=None if over_keep is None else (over_keep == 0),
            memory_key_padding_mask=None if delivery_keep is None else (delivery_keep == 0),
        )
        return self.out(out)


class OverPredictor(nn.Module):
    def __init__(self, in_dim=18, ctx_dim=20, vocab=24, d_model=256, heads=8, layers=4, d_ff=1024, drop=0.1):
        super().__init__()
        self.encoder = DeliveryEncoder(in_dim, d_model, heads, layers, d_ff, drop)
        self.decoder = OverDecoder(vocab, ctx_dim, d_model, heads, layers, d_ff, drop)

    def forward(self, batch):
        memory = self.encoder(batch["deliveries"], batch["delivery_keep"])
        return self.decoder(batch["over_in"], memory, batch["match_context"], batch["over_keep"], batch["delivery_keep"])

    @torch.no_grad()
    def sample(self, deliveries, match_context, delivery_keep=None, start=1, end=2, max_len=15, temperature=1.0):
        memory = self.encoder(deliveries, delivery_keep)
        seq = torch.full((deliveries.size(0), 1), start, dtype=torch.long, device=deliveries.device)
        done = torch.zeros(deliveries.size(0), dtype=torch.bool, device=deliveries.device)
        for _ in range(max_len - 1):
            logits = self.decoder(seq, memory, match_context, delivery_keep=delivery_keep)[:, -1] / temperature
            nxt = torch.multinomial(F.softmax(logits, dim=-1), 1)
            seq = torch.cat([seq, nxt], dim=1)
            done |= nxt.squeeze(-1) == end
            if done.all():
                break
        return seq
