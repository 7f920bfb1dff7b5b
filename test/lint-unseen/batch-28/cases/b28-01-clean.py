# case: b28-01-clean
# modelled-on: pmixer/TiSASRec.pytorch https://github.com/pmixer/TiSASRec.pytorch/commit/442bdf42b9eaadc2d6516471ed955c429b33062a
# label: correct
# class: clean
# pattern: a time-interval-aware sequential recommender's hand-written multi-head attention: heads folded into the batch with torch.split/torch.cat, scores Q K^T plus query-to-position and query-to-interval terms, divided by sqrt(head size), then a padding mask over query rows (True on a padded query position, broadcast along the keys) and a causal mask (True on a future key) applied with torch.where(mask, fill, scores) using -sys.float_info.max, softmax over dim=-1; the causal mask is built by the caller as ~tril(ones)
# why: correct: both masks are True on the entries to remove and are the condition that picks the fill value; ~tril marks strictly future keys; the scale is the per-head width K_.shape[-1] ** 0.5; the softmax module is over the key axis (-1); the finite minimum float avoids the NaN rows that -inf would give on all-padded rows
# looks-like: ATT002, ATT007
# source: https://github.com/pmixer/TiSASRec.pytorch https://github.com/pmixer/TiSASRec.pytorch/commit/442bdf42b9eaadc2d6516471ed955c429b33062a model.py
import sys

import numpy as np
import torch

NEG_FILL = -sys.float_info.max


class IntervalAwareAttention(torch.nn.Module):
    def __init__(self, hidden_size, head_num, dropout_rate):
        super().__init__()
        self.to_q = torch.nn.Linear(hidden_size, hidden_size)
        self.to_k = torch.nn.Linear(hidden_size, hidden_size)
        self.to_v = torch.nn.Linear(hidden_size, hidden_size)
        self.dropout = torch.nn.Dropout(p=dropout_rate)
        self.softmax = torch.nn.Softmax(dim=-1)
        self.per_head = hidden_size // head_num

    def forward(self, q_in, kv_in, pad_mask, causal_mask, time_matrix_K, time_matrix_V, abs_pos_K, abs_pos_V):
        Q, K, V = self.to_q(q_in), self.to_k(kv_in), self.to_v(kv_in)
        Q_ = torch.cat(torch.split(Q, self.per_head, dim=2), dim=0)
        K_ = torch.cat(torch.split(K, self.per_head, dim=2), dim=0)
        V_ = torch.cat(torch.split(V, self.per_head, dim=2), dim=0)
        tK = torch.cat(torch.split(time_matrix_K, self.per_head, dim=3), dim=0)
        tV = torch.cat(torch.split(time_matrix_V, self.per_head, dim=3), dim=0)
        pK = torch.cat(torch.split(abs_pos_K, self.per_head, dim=2), dim=0)
        pV = torch.cat(torch.split(abs_pos_V, self.per_head, dim=2), dim=0)

        logits = Q_.matmul(torch.transpose(K_, 1, 2))
        logits += Q_.matmul(torch.transpose(pK, 1, 2))
        logits += tK.matmul(Q_.unsqueeze(-1)).squeeze(-1)
        logits = logits / (K_.shape[-1] ** 0.5)

        pad_mask = pad_mask.unsqueeze(-1).expand(logits.shape[0], -1, logits.shape[-1])
        causal_mask = causal_mask.unsqueeze(0).expand(logits.shape[0], -1, -1)
        fill = torch.ones(logits.shape) * NEG_FILL
        logits = torch.where(pad_mask, fill, logits)  # True: padded query row
        logits = torch.where(causal_mask, fill, logits)  # True: future key

        logits = self.softmax(logits)
        logits = self.dropout(logits)

        ctx = logits.matmul(V_)
        ctx += logits.matmul(pV)
        ctx += logits.unsqueeze(-2).matmul(tV).reshape(ctx.shape)
        return torch.cat(torch.split(ctx, Q.shape[0], dim=0), dim=2)


def run_blocks(layers, norms, h, log_seqs, time_matrix_K, time_matrix_V, abs_pos_K, abs_pos_V, dev):
    pad_slots = torch.BoolTensor(log_seqs == 0).to(dev)
    h *= ~pad_slots.unsqueeze(-1)
    steps = h.shape[1]
    future = ~torch.tril(torch.ones((steps, steps), dtype=torch.bool, device=dev))
    for norm, layer in zip(norms, layers):
        q = norm(h)
        h = q + layer(q, h, pad_slots, future, time_matrix_K, time_matrix_V, abs_pos_K, abs_pos_V)
        h *= ~pad_slots.unsqueeze(-1)
    return h
