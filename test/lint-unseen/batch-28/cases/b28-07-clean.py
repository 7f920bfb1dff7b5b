# case: b28-07-clean
# modelled-on: elbuco1/AttentionMechanismsTrajectoryPrediction https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction/commit/3dac0593bd331630a167667166ddb3df575b2b4d
# label: correct
# class: clean
# pattern: a pedestrian-trajectory study's social soft attention between agents of a scene: each (query agent, key agent) pair concatenated and scored by an MLP to (B, Nq, Nk), a mask built in NumPy from which agent slots hold real tracks (1 where the query agent is active and the key agent is not, as a ByteTensor) applied with masked_fill(mask, -inf), softmax over dim=2, bmm with the values
# why: correct: mask[b, i, j] = a_i AND NOT a_j is 1 exactly on the pairs an active agent must ignore (an empty slot), and masked_fill puts -inf there, so the polarity is right; no row is fully masked (an inactive query keeps every key and an active one keeps itself); dim=2 of (B, Nq, Nk) is the key axis and bmm(weights, v) sums over it; MLP scores are not a dot product and take no 1/sqrt(d)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction https://github.com/elbuco1/AttentionMechanismsTrajectoryPrediction/commit/3dac0593bd331630a167667166ddb3df575b2b4d src/models/models/soft_attention.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as f


class PairScorer(nn.Module):
    def __init__(self, device, dmodel, widths, dropout=0.1):
        super().__init__()
        self.device = device
        layers = [nn.Linear(dmodel * 2, widths[0]), nn.ReLU()]
        for i in range(1, len(widths)):
            layers += [nn.Linear(widths[i - 1], widths[i]), nn.ReLU()]
        layers.append(nn.Linear(widths[-1], 1))
        self.scorer = nn.Sequential(*layers)

    def forward(self, q, k, v, mask=None):  # B,N,dmodel
        _, Nq, _ = q.size()
        _, Nk, _ = k.size()
        q = q.unsqueeze(2).repeat(1, 1, Nk, 1)  # B,Nq,Nk,dmodel
        k = k.unsqueeze(1).repeat(1, Nq, 1, 1)  # B,Nq,Nk,dmodel
        pair_logits = torch.cat([q, k], dim=3)
        pair_logits = self.scorer(pair_logits).squeeze(3)  # B,Nq,Nk
        NEG_INF = float('-inf')
        if mask is not None:
            pair_logits = pair_logits.masked_fill(mask, NEG_INF)
        weights = f.softmax(pair_logits, dim=2)  # B,Nq,Nk
        ctx = torch.bmm(weights, v)  # B,Nq,dmodel
        return ctx

    def agent_mask(self, tracks, n_slots):
        if n_slots == 1:
            tracks = np.expand_dims(tracks, axis=1)
        active = (np.sum(tracks.reshape(tracks.shape[0], tracks.shape[1], -1), axis=2) > 0).astype(int)
        a = np.repeat(np.expand_dims(active, axis=2), n_slots, axis=-1)
        b = np.transpose(a, axes=(0, 2, 1))
        pair_mask = np.logical_and(np.logical_xor(a, b), a).astype(int)
        return torch.ByteTensor(pair_mask).detach()


class SocialSoftAttention(nn.Module):
    def __init__(self, device, dmodel, widths, dropout=0.1):
        super().__init__()
        self.device = device
        self.pairwise = PairScorer(device, dmodel, widths, dropout=dropout)

    def forward(self, q, k, v, tracks=None):
        if tracks is not None:
            mask = self.pairwise.agent_mask(tracks, q.size()[1]).to(self.device)
            return self.pairwise(q, k, v, mask)
        return self.pairwise(q, k, v)
