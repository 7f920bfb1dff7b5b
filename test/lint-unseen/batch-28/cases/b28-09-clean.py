# case: b28-09-clean
# modelled-on: elbuco1/AttentionMechanismsTrajectoryPrediction https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction/commit/470da0aa6107ba510bc079b142a3ec312b02c6da
# label: correct
# class: clean
# pattern: the same trajectory study's later multi-head variant: nn.MultiheadAttention over the agent slots of a scene, only the first (ego) agent as the query unless multiquery is set, batch-first tensors permuted to sequence-first, and key_padding_mask built in NumPy as (sum of an agent slot's points == 0), i.e. 1 on empty slots
# why: correct: key_padding_mask is True (non-zero) on the keys to ignore, and an empty slot is exactly the key that must be ignored, so the polarity is right; the ego agent's own slot is never empty, so its row keeps at least one key; q, k and v are permuted to (N, B, E) as the module's default layout expects
# looks-like: ATT002
# source: https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction/commit/470da0aa6107ba510bc079b142a3ec312b02c6da src/models/models/soft_attention.py
import numpy as np
import torch
import torch.nn as nn


class SceneHeads(nn.Module):
    def __init__(self, device, dmodel, h, p_drop):
        super().__init__()
        self.device = device
        self.core = nn.MultiheadAttention(dmodel, h, p_drop)

    def empty_slots(self, tracks, n_slots):
        if n_slots == 1:
            tracks = np.expand_dims(tracks, axis=1)
        per_slot = np.sum(tracks.reshape(tracks.shape[0], tracks.shape[1], -1), axis=2)
        return torch.from_numpy((per_slot == 0).astype(np.uint8)).bool()

    def forward(self, q, k, v, tracks=None, multiquery=0):
        pad = None
        if tracks is not None:
            pad = self.empty_slots(tracks, q.size()[1]).to(self.device)
        if not multiquery:
            q = q[:, 0].clone().unsqueeze(1)
        q, k, v = (t.permute(1, 0, 2) for t in (q, k, v))
        out, _ = self.core(q, k, v, key_padding_mask=pad)
        return out.permute(1, 0, 2)  # B, Nq, dmodel
