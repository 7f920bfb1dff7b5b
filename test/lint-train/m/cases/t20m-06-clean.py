# case: t20m-06-clean
# modelled-on: shuzhancnjx/gpt2-from-scratch https://github.com/shuzhancnjx/gpt2-from-scratch/commit/58c3d444c7e99a92834729b8c5040c1e19eb8f94
# label: correct
# class: clean
# pattern: a learning-notes GPT head with an optional KV cache: with use_cache the new keys and values are concatenated onto the cached ones; when more than one new token arrives, the causal mask is the slice tril[past_length:past_length + T, :total] of a lower-triangular ones buffer (past_length = total - T) and the scores are filled with -inf where it is 0; a single new token gets no mask; without a cache the usual tril[:T, :T] == 0 fill applies
# why: correct: row i of the slice is row past_length + i of the full triangle, so each new query sees every cached key and the new keys up to itself (the bottom-right alignment a cache needs); a lone new token may see everything; the diagonal is always kept, so no row is all -inf; scores are divided by sqrt(head_size). (The original calls the misspelt mask_fill; the case writes masked_fill.)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/shuzhancnjx/gpt2-from-scratch https://github.com/shuzhancnjx/gpt2-from-scratch/commit/58c3d444c7e99a92834729b8c5040c1e19eb8f94 learning/attention.py
import torch
from torch import nn
from torch.nn import functional as F

block_size = 256


class CachedMultiHeadAttention(nn.Module):
    def __init__(self, n_head, head_size, n_embedding, dropout):
        super().__init__()
        self.n_head = n_head
        self.head_size = head_size
        self.k_proj = nn.Linear(n_embedding, head_size * n_head, bias=False)
        self.q_proj = nn.Linear(n_embedding, head_size * n_head, bias=False)
        self.v_proj = nn.Linear(n_embedding, head_size * n_head, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.proj = nn.Linear(head_size * n_head, n_embedding)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x, kv_cache=None, use_cache=False):
        B, T, C = x.shape
        key = self.k_proj(x).view(B, T, self.n_head, self.head_size).transpose(1, 2)
        query = self.q_proj(x).view(B, T, self.n_head, self.head_size).transpose(1, 2)
        value = self.v_proj(x).view(B, T, self.n_head, self.head_size).transpose(1, 2)

        if use_cache:
            if kv_cache is not None:
                k_past, v_past = kv_cache
                k = torch.cat([k_past, key], dim=2)
                v = torch.cat([v_past, value], dim=2)
            else:
                k, v = key, value
            new_cache = (k, v)
            wei = query @ k.transpose(-1, -2)  # B, n_head, T, total
            wei = wei / self.head_size**0.5
            if T > 1:
                past_length = k.size(2) - T
                mask = self.tril[past_length : past_length + T, : k.size(2)]
                wei = wei.masked_fill(mask == 0, float("-inf"))
        else:
            k, v = key, value
            wei = query @ key.transpose(-1, -2)
            wei = wei / self.head_size**0.5
            wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
            new_cache = None

        wei = self.dropout(F.softmax(wei, dim=-1))
        out = (wei @ v).transpose(1, 2).contiguous().view(B, T, self.head_size * self.n_head)
        return self.proj(out), new_cache
