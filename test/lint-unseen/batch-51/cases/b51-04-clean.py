# case: b51-04-clean
# modelled-on: dylkol/music-transformer-with-style https://github.com/dylkol/music-transformer-with-style/commit/68ca9010ffc8c31802840c9eba09d896b4d49d46
# label: correct
# class: clean
# pattern: a style-conditioned piano-roll model with Music-Transformer relative attention: keys laid out (batch, time, head, feature) are brought to (batch, head, feature, time) by one permute(0, 2, 3, 1) for q @ k, relative-position logits from a learned distance table go through the "skew" pad-reshape-slice, the sum is divided by sqrt(d_model / heads), and the caller's additive float causal mask from nn.Transformer.generate_square_subsequent_mask is added before a softmax over the last axis; the model runs the layers over time with the 88 notes as the batch axis
# why: correct: permute(0, 2, 3, 1) of (B, T, H, D) keys gives (B, H, D, T), the transposed keys the product needs (queries are (B, H, T, D) by transpose(1, 2)); the scale is sqrt of the per-head width; the mask is the additive 0 / -inf form over (time, time), built for the time axis the layers attend over (the notes were moved to the batch axis first), added to the logits before the softmax over keys; the skewed relative logits are indexed (query, key) like q @ k
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/dylkol/music-transformer-with-style https://github.com/dylkol/music-transformer-with-style/commit/68ca9010ffc8c31802840c9eba09d896b4d49d46 model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def skew(rel_logits: torch.Tensor) -> torch.Tensor:
    """Huang et al. (2018), 3.4: turn (B, H, L, L) query-by-distance logits into query-by-key logits."""
    padded = F.pad(rel_logits, (1, 0))  # (B, H, L, L + 1)
    b, h, rows, cols = padded.shape
    shifted = padded.reshape(b, h, cols, rows)  # (B, H, L + 1, L)
    return shifted[:, :, 1:, :]


def add_sinusoid(x: torch.Tensor) -> None:
    """In place: the absolute sinusoid code on top of the relative one. x: (batch, seq, feature)."""
    feats = x.shape[2]
    denom = (10000 ** (torch.arange(0, feats, 2) * 2 / feats)).to(x.device)
    pos = torch.arange(x.shape[1], device=x.device).view(1, -1, 1)
    x[:, :, 0::2] += torch.sin(pos / denom)
    x[:, :, 1::2] += torch.cos(pos / denom)


class RelativeDecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, max_dist, d_hidden, dropout=0.1):
        super().__init__()
        if d_model % n_heads:
            raise ValueError("d_model must be a multiple of n_heads")
        self.d_model, self.n_heads, self.max_dist = d_model, n_heads, max_dist
        self.per_head = d_model // n_heads
        self.to_q = nn.Linear(d_model, d_model)
        self.to_k = nn.Linear(d_model, d_model)
        self.to_v = nn.Linear(d_model, d_model)
        self.distance_table = nn.Embedding(max_dist, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_hidden, d_model))

    def forward(self, x, mask=None):
        # x: (batch, seq, d_model); mask: additive (seq, seq), 0 or -inf
        b, n, _ = x.shape
        q = self.to_q(x).view(b, n, self.n_heads, self.per_head)
        k = self.to_k(x).view(b, n, self.n_heads, self.per_head)
        v = self.to_v(x).view(b, n, self.n_heads, self.per_head)

        # the last n rows of the table, farthest distance first
        rel = self.distance_table(torch.arange(self.max_dist - n, self.max_dist, device=x.device))
        rel = rel.view(n, self.n_heads, self.per_head).permute(1, 2, 0)  # (H, D, n)

        q_bh = q.transpose(1, 2)  # (B, H, n, D)
        rel_logits = skew(torch.matmul(q_bh, rel))
        content = torch.matmul(q_bh, k.permute(0, 2, 3, 1))  # (B, H, n, D) @ (B, H, D, n)

        logits = (content + rel_logits) / torch.sqrt(torch.tensor(self.d_model / self.n_heads, device=x.device))
        if mask is not None:
            logits = logits + mask
        weights = F.softmax(logits, dim=-1)

        out = torch.matmul(weights, v.transpose(1, 2))  # (B, H, n, D)
        out = out.transpose(1, 2).reshape(b, n, self.d_model)
        return self.ff(out)


class StyledPianoModel(nn.Module):
    def __init__(self, d_note, d_style, n_layers, n_heads, max_len, d_hidden, n_composers, p_drop=0.2, steps_per_bar=16):
        super().__init__()
        width = d_note + steps_per_bar
        self.octave_conv = nn.Sequential(nn.Dropout(p_drop), nn.Conv1d(1, d_note, 23, padding=11), nn.ReLU())
        self.style_embed = nn.Linear(n_composers, d_style)
        self.style_to_time = nn.Sequential(nn.Dropout(p_drop), nn.Linear(d_style, width), nn.ReLU())
        self.time_layers = nn.ModuleList(
            RelativeDecoderLayer(width, n_heads, max_len, d_hidden, p_drop) for _ in range(n_layers)
        )
        self.play_head = nn.Sequential(nn.Dropout(p_drop), nn.Linear(width, 2))
        self.volume_head = nn.Sequential(nn.Dropout(p_drop), nn.Linear(width, 1), nn.Sigmoid())

    def forward(self, pressed, beats, style, temp=1.0):
        # pressed: (88, time) piano roll; beats: (time, steps_per_bar) one-hot; style: (n_composers,)
        rolls = pressed.unsqueeze(1).transpose(0, 2)  # (time, 1, 88)
        beat_feats = beats.repeat((88, 1, 1)).permute(1, 0, 2)  # (time, 88, steps_per_bar)
        feats = torch.cat([self.octave_conv(rolls).transpose(1, 2), beat_feats], dim=-1)  # (time, 88, width)

        future = nn.Transformer.generate_square_subsequent_mask(feats.shape[0], device=feats.device)
        style_vec = self.style_to_time(self.style_embed(style))

        h = feats.transpose(0, 1)  # (88, time, width): the notes become the batch axis
        add_sinusoid(h)
        for layer in self.time_layers:
            h = layer(h + style_vec, mask=future)
        h = h.transpose(0, 1)  # (time, 88, width)

        play = self.play_head(h)
        play = torch.stack([play[..., 0] / temp, play[..., 1]], dim=-1).sigmoid()
        return play.permute(1, 0, 2), self.volume_head(h).squeeze(-1).transpose(0, 1)
