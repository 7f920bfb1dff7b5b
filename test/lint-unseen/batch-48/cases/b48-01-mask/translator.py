# case: b48-01-mask
# modelled-on: shravnchandr/Sign-Language-Translation https://github.com/shravnchandr/Sign-Language-Translation/commit/43d4cd0931f799079e63e4993cf27b7b57dfbc90
# label: buggy
# class: real-bug
# pattern: a sign-language translator (a folder: the collate function that pads codebook tokens and returns a boolean `valid` mask, the conformer self-attention and decoder cross-attention built on nn.MultiheadAttention, and the model plus training step that hand the collated mask to both as key_padding_mask)
# why: buggy: the collate function documents and builds the mask as True on real tokens (arange < lengths), while nn.MultiheadAttention's key_padding_mask ignores the positions that are True, as the attention module's own comment says; the training step passes the collated mask unchanged, so every real token is hidden from the encoder's self-attention and from the decoder's cross-attention and only the padding is attended (the model's own length fallback, `(~mask).sum(1)`, reads the same mask as True on padding, the opposite of what the collate function returns). No commit fixes it; the label rests on the conventions the repository documents
# source: https://github.com/shravnchandr/Sign-Language-Translation https://github.com/shravnchandr/Sign-Language-Translation/commit/43d4cd0931f799079e63e4993cf27b7b57dfbc90 research/models/vqvae_seq2seq/translation/translator_model.py
import math
from typing import Dict, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from blocks import CrossDecoderLayer, SelfAttentionModule


class GlossTranslator(nn.Module):
    def __init__(self, vocab: int, width: int = 512, depth: int = 6, pad_id: int = 0, max_len: int = 100):
        super().__init__()
        self.pad_id = pad_id
        self.stream_embed = nn.ModuleDict({s: nn.Embedding(1024, width) for s in ("pose", "motion", "face")})
        self.encoder = nn.ModuleList([SelfAttentionModule(width) for _ in range(depth)])
        self.tok = nn.Embedding(vocab, width, padding_idx=pad_id)
        self.decoder = nn.ModuleList([CrossDecoderLayer(width) for _ in range(depth)])
        self.head = nn.Linear(width, vocab)
        self.register_buffer("future", torch.triu(torch.ones(max_len, max_len), diagonal=1).bool())

    def encode(self, streams: Dict[str, torch.Tensor], pad: Optional[torch.Tensor] = None) -> torch.Tensor:
        x = sum(self.stream_embed[s](streams[s]) for s in self.stream_embed)
        for block in self.encoder:
            x = x + block(x, pad)
        return x

    def forward(self, streams, targets, pad: Optional[torch.Tensor] = None, lengths=None):
        memory = self.encode(streams, pad)
        if lengths is None and pad is not None:
            lengths = (~pad).sum(dim=1)
        inp, gold = targets[:, :-1], targets[:, 1:]
        y = self.tok(inp) * math.sqrt(self.tok.embedding_dim)
        t = inp.size(1)
        for layer in self.decoder:
            y = layer(y, memory, self.future[:t, :t], pad)
        logits = self.head(y)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), gold.reshape(-1), ignore_index=self.pad_id)


def train_step(model: GlossTranslator, batch: Dict[str, torch.Tensor], optimizer, device):
    streams = {s: batch[s].to(device) for s in ("pose", "motion", "face")}
    pad = batch.get("valid")
    if pad is not None:
        pad = pad.to(device)
    loss = model(streams, batch["gloss"].to(device), pad=pad, lengths=batch["count"].to(device))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()
