# case: b5-11-fill
# modelled-on: baka-world/SASRec.pytorch https://github.com/baka-world/SASRec.pytorch/commit/6e0e7a929419717724cb1d02c078522279e270eb
# label: correct
# class: fixed
# pattern: after the fix: a SASRec sequential recommender with a hand-written multi-head attention: the causal mask is ~tril (True = future), expanded per batch and head, and filled with a module-level constant FLOAT_MIN before the softmax; the training script in another module runs the model under torch.amp.autocast("cuda", enabled=args.use_amp) with a GradScaler, and --use_amp defaults to True
# why: correct: -1e4 is representable in float16, far enough below the scaled scores to give the future positions zero weight after the softmax; the mask is True at the positions to hide, as masked_fill expects
# looks-like: ATT002, ATT007
# source: https://github.com/baka-world/SASRec.pytorch https://github.com/baka-world/SASRec.pytorch/commit/6e0e7a929419717724cb1d02c078522279e270eb python/model.py
import numpy as np
import torch

FLOAT_MIN = -1e4


class StableMultiheadAttention(torch.nn.Module):
    def __init__(self, hidden, heads, p_drop):
        super().__init__()
        self.hidden = hidden
        self.heads = heads
        self.head_size = hidden // heads
        self.q_w = torch.nn.Linear(hidden, hidden)
        self.k_w = torch.nn.Linear(hidden, hidden)
        self.v_w = torch.nn.Linear(hidden, hidden)
        self.out_w = torch.nn.Linear(hidden, hidden)
        self.dropout = torch.nn.Dropout(p=p_drop)

    def forward(self, queries, keys, values, attn_mask=None):
        b, n = queries.shape[0], queries.shape[1]
        # (b, n, hidden) -> (b, heads, n, head_size)
        Q = self.q_w(queries).view(b, n, self.heads, self.head_size).transpose(1, 2)
        K = self.k_w(keys).view(b, n, self.heads, self.head_size).transpose(1, 2)
        V = self.v_w(values).view(b, n, self.heads, self.head_size).transpose(1, 2)
        scores = torch.matmul(Q, K.transpose(2, 3)) / (self.head_size**0.5)
        if attn_mask is not None:
            # attn_mask: (n, n), True where a position must not be seen
            mask = attn_mask.bool().unsqueeze(0).unsqueeze(0).repeat(b, self.heads, 1, 1)
            scores = scores.masked_fill(mask, FLOAT_MIN)
        weights = torch.nn.functional.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        out = torch.matmul(weights, V).transpose(1, 2).contiguous().view(b, n, self.hidden)
        return self.out_w(out), weights


class SeqRec(torch.nn.Module):
    def __init__(self, n_items, hidden=64, heads=2, blocks=2, max_len=200, p_drop=0.2, device="cuda"):
        super().__init__()
        self.dev = device
        self.item_emb = torch.nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.pos_emb = torch.nn.Embedding(max_len + 1, hidden, padding_idx=0)
        self.norms = torch.nn.ModuleList([torch.nn.LayerNorm(hidden, eps=1e-8) for _ in range(blocks)])
        self.attns = torch.nn.ModuleList([StableMultiheadAttention(hidden, heads, p_drop) for _ in range(blocks)])
        self.last_norm = torch.nn.LayerNorm(hidden, eps=1e-8)

    def log2feats(self, log_seqs):
        seqs = self.item_emb(torch.LongTensor(log_seqs).to(self.dev))
        seqs = seqs * self.item_emb.embedding_dim**0.5
        poss = np.tile(np.arange(1, log_seqs.shape[1] + 1), [log_seqs.shape[0], 1]) * (log_seqs != 0)
        seqs = seqs + self.pos_emb(torch.LongTensor(poss).to(self.dev))
        n = seqs.shape[1]
        future = ~torch.tril(torch.ones((n, n), dtype=torch.bool, device=self.dev))
        for norm, attn in zip(self.norms, self.attns):
            x = norm(seqs)
            y, _ = attn(x, x, x, attn_mask=future)
            seqs = seqs + y
        return self.last_norm(seqs)

    def forward(self, log_seqs, pos_seqs, neg_seqs):
        feats = self.log2feats(log_seqs)
        pos = self.item_emb(torch.LongTensor(pos_seqs).to(self.dev))
        neg = self.item_emb(torch.LongTensor(neg_seqs).to(self.dev))
        return (feats * pos).sum(dim=-1), (feats * neg).sum(dim=-1)
