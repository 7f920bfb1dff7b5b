# case: b35-08-clean
# modelled-on: facebookresearch/fairmotion https://github.com/facebookresearch/fairmotion/commit/e400e564deac93bb74ffecd9c366d76b3406e217
# label: correct
# class: clean
# pattern: a motion-prediction Transformer (human poses as continuous vectors, so a Linear replaces the embedding; sequence-first nn.TransformerEncoder / nn.TransformerDecoder): the projected poses are multiplied by sqrt(ninp) before the positional encoding; training feeds the target shifted by one pose (the last source pose first) with a float square-subsequent mask ((triu(ones) == 1).transpose(0, 1), -inf where 0, 0.0 where 1); greedy inference writes each predicted pose into a zero-filled (max_len, batch, dim) buffer and reruns the decoder over the whole buffer with a max_len x max_len causal mask, reading row i (a change made in a 2021 pull request, "the mask did not match the size of the decoder input")
# why: correct: the float mask is 0.0 on and below the diagonal and -inf above it, PyTorch's additive convention for tgt_mask; in greedy decoding the rows after i hold zeros that the causal mask keeps away from row i, so rerunning over the full buffer matches step-by-step decoding (no cache is involved); sqrt(ninp) scales the input projection as in the original Transformer's embeddings, not the attention scores, which nn.MultiheadAttention scales by the head size itself
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/facebookresearch/fairmotion https://github.com/facebookresearch/fairmotion/commit/e400e564deac93bb74ffecd9c366d76b3406e217 fairmotion/models/transformer.py
import math

import numpy as np
import torch
import torch.nn as nn
from torch.nn import LayerNorm, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer


class PoseTimeEncoding(nn.Module):
    def __init__(self, dim: int, dropout: float = 0.1, max_len: int = 5000) -> None:
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pos = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        freq = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
        table = torch.zeros(max_len, dim)
        table[:, 0::2], table[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
        self.register_buffer("table", table.unsqueeze(0).transpose(0, 1))  # (max_len, 1, dim)

    def forward(self, x):
        return self.dropout(x + self.table[: x.size(0), :])


class PosePredictor(nn.Module):
    def __init__(self, pose_dim: int, ninp: int, heads: int, hidden: int, layers: int, dropout: float = 0.5) -> None:
        super().__init__()
        self.ninp = ninp
        self.time = PoseTimeEncoding(ninp, dropout)
        self.encoder_stack = TransformerEncoder(TransformerEncoderLayer(ninp, heads, hidden, dropout), layers, norm=LayerNorm(ninp))
        self.decoder_stack = TransformerDecoder(TransformerDecoderLayer(ninp, heads, hidden, dropout), layers, norm=LayerNorm(ninp))
        self.lift = nn.Linear(pose_dim, ninp)  # poses are continuous: a Linear instead of an Embedding
        self.drop_back = nn.Linear(ninp, pose_dim)
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    @staticmethod
    def future_mask(size: int) -> torch.Tensor:
        seen = (torch.triu(torch.ones(size, size)) == 1).transpose(0, 1)
        return seen.float().masked_fill(seen == 0, float("-inf")).masked_fill(seen == 1, float(0.0))

    def embed(self, poses):
        return self.time(self.lift(poses) * np.sqrt(self.ninp))

    def forward(self, src, tgt, max_len=None):
        """src, tgt: (batch, frames, pose_dim); returns (batch, frames, pose_dim)."""
        src, tgt = src.transpose(0, 1), tgt.transpose(0, 1)
        max_len = tgt.shape[0] if max_len is None else max_len
        memory = self.encoder_stack(self.embed(src))
        if self.training:
            mask = self.future_mask(tgt.shape[0]).to(device=tgt.device)
            shifted = torch.cat((src[-1].unsqueeze(0), tgt[:-1]))
            out = self.drop_back(self.decoder_stack(self.embed(shifted), memory, tgt_mask=mask))
            return out.transpose(0, 1)
        frames = torch.zeros(max_len, src.shape[1], src.shape[-1]).type_as(src)
        mask = self.future_mask(max_len).to(device=tgt.device)
        next_pose = tgt[0].clone()
        for i in range(max_len):
            frames[i] = next_pose
            decoded = self.decoder_stack(self.embed(frames), memory, tgt_mask=mask)
            next_pose = self.drop_back(decoded)[i].clone()
        return frames.transpose(0, 1)
