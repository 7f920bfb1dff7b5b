# case: t25r-03-clean
# modelled-on: Harshdoshi1/GenAI-project-music-transformer https://github.com/Harshdoshi1/GenAI-project-music-transformer/commit/d120a79373b38ee1522731fc1998588476c00ed2
# label: correct
# class: clean
# pattern: a tiny music language model for Bach chorales on nn.TransformerEncoder (batch_first, norm_first) used as a decoder-only model: the training step builds the causal mask with a helper from a utils module, torch.triu(ones, diagonal=1) turned into -inf above the diagonal by mask.masked_fill(mask == 1, float("-inf")) (zeros elsewhere), and passes it as mask= to the encoder stack; generate() rebuilds the same float mask inline for the cropped context, divides the last position's logits by a temperature and samples after a top-k filter that puts -inf into torch.where
# why: correct: nn.TransformerEncoder adds a float mask to the attention logits, so 0 on and below the diagonal and -inf above it is the right polarity for a causal mask; no row is fully masked (the diagonal is always 0), so the -inf fill cannot produce NaN; the module applies its own 1/sqrt(head_dim) scale; the temperature divides sampling logits, not attention scores, and the top-k -inf fill is over the vocabulary
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Harshdoshi1/GenAI-project-music-transformer https://github.com/Harshdoshi1/GenAI-project-music-transformer/commit/d120a79373b38ee1522731fc1998588476c00ed2 bach-transformer/src/models/mini_music_transformer.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class ChoraleLM(nn.Module):
    def __init__(self, vocab_size=133, d_model=256, n_heads=4, n_layers=4, d_ff=512, dropout=0.1, max_len=1024):
        super().__init__()
        self.max_len = max_len
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(
            d_model=d_model,
            nhead=n_heads,
            dim_feedforward=d_ff,
            dropout=dropout,
            activation="gelu",
            batch_first=True,
            norm_first=True,
        )
        self.blocks = nn.TransformerEncoder(layer, num_layers=n_layers)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, idx: torch.Tensor, attn_mask: Optional[torch.Tensor] = None):
        b, t = idx.shape
        assert t <= self.max_len
        pos = torch.arange(0, t, device=idx.device).unsqueeze(0)
        x = self.tok(idx) + self.pos(pos)
        x = self.blocks(x, mask=attn_mask)
        return self.head(self.norm(x))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=0):
        self.eval()
        for _ in range(max_new_tokens):
            if idx.size(1) > self.max_len:
                idx = idx[:, -self.max_len :]
            t = idx.size(1)
            mask = torch.triu(torch.ones(t, t, device=idx.device), diagonal=1)
            mask = mask.masked_fill(mask == 1, float("-inf"))
            logits = self(idx, attn_mask=mask)[:, -1, :] / max(1e-6, temperature)
            if top_k > 0:
                v, _ = torch.topk(logits, k=min(top_k, logits.size(-1)))
                logits = torch.where(logits < v[:, -1:], torch.full_like(logits, float("-inf")), logits)
            probs = F.softmax(logits, dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, num_samples=1)], dim=1)
        return idx
