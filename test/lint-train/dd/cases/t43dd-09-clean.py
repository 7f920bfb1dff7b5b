# case: t43dd-09-clean
# modelled-on: fkid009/SASRec-Pytorch https://github.com/fkid009/SASRec-Pytorch/commit/1b28283e3e01bcd5940fd318f30e9d794846d1ea
# label: correct
# class: clean
# pattern: SASRec (self-attentive sequential recommendation) on `nn.MultiheadAttention(batch_first=False)`: item embeddings multiplied by sqrt(hidden), positions zeroed at padded items, the causal mask `~torch.tril(ones(T, T, bool))` passed as `attn_mask=`, the sequence transposed to (T, B, H) around each attention call, pre-LN or post-LN blocks chosen by a flag, and the next-item score `final_feat @ item_embs.t()`
# why: correct: a boolean attn_mask of nn.MultiheadAttention is True where attention is NOT allowed, so `~tril` (True above the diagonal) hides the future; the sqrt(hidden) factor scales the embeddings (as in the Transformer's embedding layer), not attention scores, and the module scales its own scores; the (T, B, H) transposes match batch_first=False; the item score is a retrieval dot product, not attention
# looks-like: ATT002, ATT004, ATT005, ATT008
# source: https://github.com/fkid009/SASRec-Pytorch https://github.com/fkid009/SASRec-Pytorch/commit/1b28283e3e01bcd5940fd318f30e9d794846d1ea model/sasrec.py
import numpy as np
import torch
import torch.nn as nn


class ConvFFN(nn.Module):
    def __init__(self, hidden, p):
        super().__init__()
        self.c1 = nn.Conv1d(hidden, hidden, kernel_size=1)
        self.c2 = nn.Conv1d(hidden, hidden, kernel_size=1)
        self.d1 = nn.Dropout(p)
        self.d2 = nn.Dropout(p)

    def forward(self, x):
        y = self.d1(torch.relu(self.c1(x.transpose(-1, -2))))
        return self.d2(self.c2(y)).transpose(-1, -2)


class SeqRecommender(nn.Module):
    def __init__(self, n_items, hidden, max_len, p, n_blocks, n_heads, pre_norm, device):
        super().__init__()
        self.hidden = hidden
        self.pre_norm = pre_norm
        self.device = device
        self.items = nn.Embedding(n_items + 1, hidden, padding_idx=0)
        self.positions = nn.Embedding(max_len + 1, hidden, padding_idx=0)
        self.drop = nn.Dropout(p)
        self.attn_norms = nn.ModuleList(nn.LayerNorm(hidden, eps=1e-8) for _ in range(n_blocks))
        self.attns = nn.ModuleList(
            nn.MultiheadAttention(embed_dim=hidden, num_heads=n_heads, dropout=p, batch_first=False) for _ in range(n_blocks)
        )
        self.ffn_norms = nn.ModuleList(nn.LayerNorm(hidden, eps=1e-8) for _ in range(n_blocks))
        self.ffns = nn.ModuleList(ConvFFN(hidden, p) for _ in range(n_blocks))
        self.final_norm = nn.LayerNorm(hidden, eps=1e-8)

    def encode(self, logs):
        ids = torch.as_tensor(np.asarray(logs), dtype=torch.long, device=self.device)
        h = self.items(ids) * self.hidden**0.5
        pos = np.tile(np.arange(1, ids.shape[1] + 1), (ids.shape[0], 1)) * (ids.cpu().numpy() != 0)
        h = self.drop(h + self.positions(torch.as_tensor(pos, dtype=torch.long, device=self.device)))

        T = h.shape[1]
        future = ~torch.tril(torch.ones((T, T), dtype=torch.bool, device=self.device))
        for norm, attn, fnorm, ffn in zip(self.attn_norms, self.attns, self.ffn_norms, self.ffns):
            h = h.transpose(0, 1)
            if self.pre_norm:
                z = norm(h)
                out, _ = attn(z, z, z, attn_mask=future)
                h = (h + out).transpose(0, 1)
                h = h + ffn(fnorm(h))
            else:
                out, _ = attn(h, h, h, attn_mask=future)
                h = norm(h + out).transpose(0, 1)
                h = fnorm(h + ffn(h))
        return self.final_norm(h)

    def forward(self, logs, pos_items, neg_items):
        feats = self.encode(logs)
        pos = self.items(torch.as_tensor(pos_items, device=self.device))
        neg = self.items(torch.as_tensor(neg_items, device=self.device))
        return (feats * pos).sum(dim=-1), (feats * neg).sum(dim=-1)

    def predict(self, logs, candidates):
        last = self.encode(logs)[:, -1, :]
        return last @ self.items(torch.as_tensor(candidates, device=self.device)).t()
