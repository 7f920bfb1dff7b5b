# case: b48-04-clean
# modelled-on: LucasDame/ImageCaptioning https://github.com/LucasDame/ImageCaptioning/commit/93ea3d60cccadb531829b0f9b9ab8c9d0284962f
# label: correct
# class: clean
# pattern: an image-captioning LSTM decoder with additive (Bahdanau) attention over CNN pixels, softmax over dim 1 of (batch, pixels), and a causal nn.MultiheadAttention over the word embeddings before the LSTM; at inference the caller keeps the embeddings already produced and each step re-runs the self-attention over history + new token with a fresh square triu mask, keeping only the last position
# why: correct: the additive scores are (batch, pixels) and are normalised over the pixels; the boolean triu(diagonal=1) mask is True on future positions, which nn.MultiheadAttention's attn_mask forbids; at inference the whole history is passed as queries and keys (no cache of keys with fewer queries), so the square mask is aligned with the keys and the last row sees every earlier token
# looks-like: ATT001, ATT002, ATT003, ATT008
# source: https://github.com/LucasDame/ImageCaptioning https://github.com/LucasDame/ImageCaptioning/commit/93ea3d60cccadb531829b0f9b9ab8c9d0284962f models/decoder.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelAttention(nn.Module):
    def __init__(self, feat_dim: int, hid_dim: int, att_dim: int = 256):
        super().__init__()
        self.enc = nn.Linear(feat_dim, att_dim)
        self.dec = nn.Linear(hid_dim, att_dim)
        self.v = nn.Linear(att_dim, 1)

    def forward(self, feats: torch.Tensor, h: torch.Tensor):
        # feats: (B, P, feat_dim), h: (B, hid_dim)
        e = self.v(torch.tanh(self.enc(feats) + self.dec(h)[:, None, :])).squeeze(-1)   # (B, P)
        alpha = F.softmax(e, dim=1)
        return torch.bmm(alpha[:, None, :], feats).squeeze(1), alpha


class CaptionDecoder(nn.Module):
    def __init__(self, feat_dim, emb_dim, hid_dim, vocab, heads=8, p=0.5, sa_p=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.pixels = PixelAttention(feat_dim, hid_dim)
        self.words = nn.MultiheadAttention(emb_dim, heads, dropout=sa_p, batch_first=True)
        self.words_norm = nn.LayerNorm(emb_dim)
        self.h0, self.c0 = nn.Linear(feat_dim, hid_dim), nn.Linear(feat_dim, hid_dim)
        self.cell = nn.LSTMCell(emb_dim + feat_dim, hid_dim)
        self.drop = nn.Dropout(p)
        self.out = nn.Linear(hid_dim, vocab)

    @staticmethod
    def future_mask(n: int, device) -> torch.Tensor:
        # True = this key is in the future and may not be attended
        return torch.ones(n, n, dtype=torch.bool, device=device).triu(1)

    def contextualise(self, emb: torch.Tensor) -> torch.Tensor:
        blocked = self.future_mask(emb.size(1), emb.device)
        mixed, _ = self.words(emb, emb, emb, attn_mask=blocked)
        return self.words_norm(emb + mixed)

    def start(self, feats):
        mean = feats.mean(dim=1)
        return torch.tanh(self.h0(mean)), torch.tanh(self.c0(mean))

    def forward(self, feats, captions):
        emb = self.contextualise(self.drop(self.embed(captions)))
        h, c = self.start(feats)
        logits = []
        for t in range(captions.size(1)):
            ctx, _ = self.pixels(feats, h)
            h, c = self.cell(torch.cat([emb[:, t], ctx], dim=1), (h, c))
            logits.append(self.out(self.drop(h)))
        return torch.stack(logits, dim=1)

    def step(self, token, state, feats, history=None):
        emb = self.embed(token)[:, None, :]                  # (B, 1, E)
        seq = emb if history is None else torch.cat([history, emb], dim=1)
        seq = self.contextualise(seq)
        current = seq[:, -1:]
        ctx, alpha = self.pixels(feats, state[0])
        h, c = self.cell(torch.cat([current.squeeze(1), ctx], dim=1), state)
        return self.out(h), (h, c), alpha, current
