# case: b38-06-clean
# modelled-on: open-mmlab/mmocr https://github.com/open-mmlab/mmocr/commit/966296f26ac34cf0e96d40ab4a0a94c9a697909a
# label: correct
# class: clean
# pattern: MASTER text-recognition decoder (a folder: the decoder and the layer module it stacks): the target mask is built as (tokens != PAD) & tril(ones) (True = may attend), then turned into an additive float mask (-1e9 where False, 0 where True), repeated per head and flattened to (N * heads, T, T), and handed to layers whose self-attention is torch's nn.MultiheadAttention(batch_first=True) with attn_mask=...; cross-attention over the flattened CNN feature map gets no mask; greedy decoding re-runs the whole prefix each step (no cache)
# why: correct: a float attn_mask is added to the scores by nn.MultiheadAttention, so -1e9 on the disallowed (future or padded) positions and 0 elsewhere is the right polarity and a fill that masks in fp32; the (N * heads, T, T) layout is the one nn.MultiheadAttention accepts for 3-D masks; without a KV cache the square causal mask is always aligned
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/open-mmlab/mmocr https://github.com/open-mmlab/mmocr/commit/966296f26ac34cf0e96d40ab4a0a94c9a697909a mmocr/models/textrecog/decoders/master_decoder.py
import copy
import math

import torch
from torch import nn

from layers import MasterDecoderLayer


class TokenEmbedding(nn.Module):
    def __init__(self, d_model, vocab):
        super().__init__()
        self.lut = nn.Embedding(vocab, d_model)
        self.d_model = d_model

    def forward(self, tokens):
        return self.lut(tokens) * math.sqrt(self.d_model)


class MasterStyleDecoder(nn.Module):
    def __init__(self, num_classes, start_idx, pad_idx, n_layers=3, n_head=8, d_model=512, d_inner=2048, max_seq_len=30):
        super().__init__()
        layer = MasterDecoderLayer(d_model, n_head, d_inner)
        self.layers = nn.ModuleList(copy.deepcopy(layer) for _ in range(n_layers))
        self.embed = TokenEmbedding(d_model, num_classes)
        self.pos = nn.Parameter(torch.zeros(1, max_seq_len + 1, d_model))
        self.norm = nn.LayerNorm(d_model)
        self.classifier = nn.Linear(d_model, num_classes)
        self.start_idx, self.pad_idx = start_idx, pad_idx
        self.n_head, self.max_seq_len = n_head, max_seq_len

    def target_mask(self, tokens):
        length = tokens.size(1)
        keep_rows = (tokens != self.pad_idx)[:, None, :, None]
        lower = torch.tril(torch.ones(length, length, dtype=torch.bool, device=tokens.device))
        allowed = keep_rows & lower
        additive = torch.zeros(allowed.shape, device=tokens.device)
        additive = additive.masked_fill(~allowed, -1e9)
        additive = additive.repeat(1, self.n_head, 1, 1)
        return additive.view(-1, length, length)

    def decode(self, tokens, memory, self_mask):
        x = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        for layer in self.layers:
            x = layer(x, memory, self_mask=self_mask)
        return self.classifier(self.norm(x))

    def forward(self, feat, targets=None):
        if feat.dim() == 4:
            feat = feat.flatten(2).transpose(1, 2)
        if targets is not None:
            return self.decode(targets, feat, self.target_mask(targets))

        tokens = feat.new_full((feat.size(0), 1), self.start_idx, dtype=torch.long)
        logits = None
        for _ in range(self.max_seq_len):
            logits = self.decode(tokens, feat, self.target_mask(tokens))
            next_token = logits[:, -1].argmax(dim=-1, keepdim=True)
            tokens = torch.cat([tokens, next_token], dim=1)
        return logits.softmax(dim=-1)
