# case: b4-15-causal
# modelled-on: tanishqkumar/beyond-nanogpt https://github.com/tanishqkumar/beyond-nanogpt/commit/f7317d4f218cbe87f855c0d5b882e1fe934295de
# label: buggy
# class: real-bug
# pattern: a teaching transformer with a preallocated KV cache (kv.py): the attention writes the new keys and values into the cache and reads back everything so far, divides the scores by sqrt(head_dim), builds its causal mask as `triu(ones_like(logits), diagonal=1)` over the (queries, keys) score matrix, fills it with -inf and takes a softmax over the keys; generate.py prefills the prompt and then feeds one token per step
# why: the triu mask is aligned top-left: with cached keys the score matrix is (new tokens) x (past + new), so during decoding the single query keeps only key 0 and masks its whole past (the repository's KV-cache notebook says the new token must attend to all past keys); the mask must be offset by the past length (diagonal = past + 1) or dropped for a one-token step. No fix was found; the real file's cache bookkeeping (its length advanced only after the forward pass) is written correctly here
# source: https://github.com/tanishqkumar/beyond-nanogpt https://github.com/tanishqkumar/beyond-nanogpt/commit/f7317d4f218cbe87f855c0d5b882e1fe934295de language-models/transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):  # (B, S, D) -> (B, S, D)
    def __init__(self, D=768, head_dim=64, layer_idx=None, causal=True):
        super().__init__()
        assert D % head_dim == 0
        self.D = D
        self.head_dim = head_dim
        self.nheads = D // head_dim
        self.layer_idx = layer_idx
        self.causal = causal
        self.Wq = nn.Linear(D, D)
        self.Wk = nn.Linear(D, D)
        self.Wv = nn.Linear(D, D)
        self.Wo = nn.Linear(D, D)

    def forward(self, x, kv_cache=None):
        B, S, D = x.shape
        Q = self.Wq(x).view(B, S, self.nheads, self.head_dim).transpose(1, 2)  # (B, nh, S, hd)
        K = self.Wk(x).view(B, S, self.nheads, self.head_dim).transpose(1, 2)
        V = self.Wv(x).view(B, S, self.nheads, self.head_dim).transpose(1, 2)

        if kv_cache is not None:
            K, V = kv_cache.write(self.layer_idx, K, V)  # (B, nh, past + S, hd)

        scale = torch.sqrt(torch.tensor(self.head_dim, dtype=Q.dtype, device=Q.device))
        logits = (Q @ K.transpose(-2, -1)) / scale  # (B, nh, S, past + S)
        if self.causal:
            future = torch.triu(torch.ones_like(logits), diagonal=1).bool()
            logits = logits.masked_fill(future, float("-inf"))  # expect: ATT008
        A = F.softmax(logits, dim=-1)
        out = torch.einsum("bnxy,bnyd->bnxd", A, V)
        out = out.transpose(1, 2).reshape(B, S, -1)
        return self.Wo(out)
