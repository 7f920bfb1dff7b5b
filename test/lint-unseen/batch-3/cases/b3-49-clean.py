# case: b3-49-clean
# modelled-on: Myyyyy-y/gpt-from-scratch https://github.com/Myyyyy-y/gpt-from-scratch/commit/c3d7d405783269f8c5d1079c7e47ab8daf7401e9
# label: correct
# class: clean
# pattern: a small GPT with two softmax attentions: the token attention (a hand-written max-subtracting softmax, a causal mask from triu whose diagonal is shifted by the cached length, keys from a KV cache) and "attention residuals" across depth, where each block's input is a softmax-weighted mix of all earlier blocks' outputs stacked on a leading layer axis
# why: the depth attention stacks the hidden states as (layers, batch, seq, d_model), so the layer axis, over which the weights must sum to one, is dim 0, and the softmax runs over dim 0 on purpose (the comment says so); its query is a d_model vector, so the dot products are d_model wide and dividing by sqrt(d_model) is the right scale; in the token attention, triu(diagonal=1 + S - T) hides exactly the future keys for a block of T new queries after S - T cached ones (prefill: diagonal 1; one-token decode: nothing hidden), and True marks a hidden key
# looks-like: ATT001, ATT002, ATT004
# source: https://github.com/Myyyyy-y/gpt-from-scratch https://github.com/Myyyyy-y/gpt-from-scratch/commit/c3d7d405783269f8c5d1079c7e47ab8daf7401e9 src/model.py
import math

import torch
from torch import nn


def stable_softmax(x, dim=-1):
    x = x - x.max(dim=dim, keepdim=True).values
    e = x.exp()
    return e / e.sum(dim=dim, keepdim=True)


def causal_attention(q, k, v):
    """q: (B, H, T, D); k, v: (B, H, S, D) with S >= T (the last T keys belong to the new queries)."""
    d = q.shape[-1]
    t, s = q.shape[-2], k.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    # shifting the diagonal by the cached length covers prefill (t == s) and decoding (t == 1) alike
    hidden = torch.triu(torch.ones(t, s, device=q.device, dtype=torch.bool), diagonal=1 + (s - t))
    scores = scores.masked_fill(hidden, float("-inf"))
    return stable_softmax(scores, dim=-1) @ v


class DepthRoutedStack(nn.Module):
    """Each block reads a softmax-weighted mix of the embeddings and every earlier block's output."""

    def __init__(self, blocks: nn.ModuleList, d_model: int):
        super().__init__()
        self.blocks = blocks
        self.d_model = d_model
        self.layer_queries = nn.ParameterList([nn.Parameter(torch.zeros(d_model)) for _ in blocks])
        self.key_norm = nn.LayerNorm(d_model)

    def forward(self, x, positions):
        states = [x]
        for i, block in enumerate(self.blocks):
            if i == 0:
                h_in = x
            else:
                values = torch.stack(states)  # (layers so far, B, S, d_model)
                keys = self.key_norm(values)
                scores = torch.einsum("lbsd,d->lbs", keys, self.layer_queries[i])
                scores = scores / math.sqrt(self.d_model)
                # weights over the layer axis (dim 0): every position mixes the earlier layers
                weights = torch.softmax(scores, dim=0)
                h_in = torch.einsum("lbsd,lbs->bsd", values, weights)
            states.append(block(h_in, positions=positions))
        return states[-1]
