# case: b50-05-clean
# modelled-on: 1-Vast/MCSC https://github.com/1-Vast/MCSC/commit/4d3b40a005cce9eeed2b369265f4a008266ad57e
# label: correct
# class: clean
# pattern: a folder: a drug-target affinity model fuses four per-family "mechanism" text slots into a target context; the cache loader (other file) returns coverage (F, 4) as 1.0 for a filled slot and 0.0 for an empty one; the fusion builds key_pad = coverage <= 0, un-masks rows where every slot is empty, runs nn.MultiheadAttention(batch_first=True) from one target query over the four slot tokens with key_padding_mask=key_pad, and zeroes the result of the all-empty rows afterwards
# why: correct: nn.MultiheadAttention's boolean key_padding_mask means True = ignore this key, and coverage <= 0 is True exactly on the empty slots; a row with every key ignored would give NaN, so those rows are un-masked before the call and their (meaningless) outputs replaced by zeros after it, which is a choice about the output, not a mask applied to attention probabilities; the weighted average of slot tokens scaled by coverage is a separate, non-attention path
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/1-Vast/MCSC https://github.com/1-Vast/MCSC/commit/4d3b40a005cce9eeed2b369265f4a008266ad57e model/profiles.py
import torch
import torch.nn as nn


class SlotProfileFusion(nn.Module):
    """Turns a (B, 4, text_dim) mechanism profile into a (B, d_model) context for the target."""

    def __init__(self, text_dim: int, d_model: int, heads: int = 4, dropout: float = 0.1, use_attention: bool = True):
        super().__init__()
        self.use_attention = use_attention
        self.slot_proj = nn.Linear(text_dim, d_model)
        self.summary = nn.Sequential(
            nn.LayerNorm(text_dim), nn.Linear(text_dim, d_model), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_model, d_model)
        )
        self.gate_summary = nn.Parameter(torch.zeros(()))
        if use_attention:
            self.query_from_target = nn.Linear(d_model, d_model)
            self.cross = nn.MultiheadAttention(d_model, heads, dropout=dropout, batch_first=True)
            self.gate_cross = nn.Parameter(torch.zeros(()))

    def forward(self, target_repr, profiles, coverage):
        weights = coverage.unsqueeze(-1)
        mean_profile = (profiles * weights).sum(dim=1) / coverage.sum(dim=1, keepdim=True).clamp_min(1.0)
        context = self.gate_summary * self.summary(mean_profile)
        if not self.use_attention:
            return context

        slots = self.slot_proj(profiles) * weights  # (B, 4, d_model)
        query = self.query_from_target(target_repr).unsqueeze(1)  # (B, 1, d_model)
        ignore = coverage <= 0  # True on empty slots
        nothing = ignore.all(dim=1)
        ignore = ignore.clone()
        ignore[nothing] = False  # avoid a fully masked row; its output is discarded below
        attended, _ = self.cross(query, slots, slots, key_padding_mask=ignore)
        attended = attended.squeeze(1)
        attended = torch.where(nothing.unsqueeze(-1), torch.zeros_like(attended), attended)
        return context + self.gate_cross * attended
