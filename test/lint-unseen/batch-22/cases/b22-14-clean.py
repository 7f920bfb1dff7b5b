# case: b22-14-clean
# modelled-on: manankapoor23/KV-Paged-Attention https://github.com/manankapoor23/KV-Paged-Attention/commit/bf1befc8b55420f5fa11eac56da48b529389db83
# label: correct
# class: clean
# pattern: a paged KV-cache study's single-query decode attention: one head's query vector Q (head_dim,) against the cached keys K (seq_len, head_dim), either contiguous or gathered slot by slot from pages through a page table; scores = torch.matmul(K, Q) / sqrt(Q.shape[0]), softmax over dim=0, output = sum(weights.unsqueeze(1) * V, dim=0)
# why: correct: with a single query the scores are a (seq_len,) vector, so dim=0 is the key axis; K @ Q with the keys as the left operand needs no transpose; Q.shape[0] is head_dim, the right width for the scale; a decode query may see every cached token, so there is no mask
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/manankapoor23/KV-Paged-Attention https://github.com/manankapoor23/KV-Paged-Attention/commit/bf1befc8b55420f5fa11eac56da48b529389db83 comparison/paged_attention.py
import math

import torch


def naive_attention(Q, K, V):
    """Q: (head_dim,); K, V: (seq_len, head_dim)."""
    scores = torch.matmul(K, Q) / math.sqrt(Q.shape[0])
    weights = torch.softmax(scores, dim=0)
    return torch.sum(weights.unsqueeze(1) * V, dim=0)


class Page:
    def __init__(self, num_layers, num_heads, page_size, head_dim):
        self.K = torch.zeros(num_layers, num_heads, page_size, head_dim)
        self.V = torch.zeros(num_layers, num_heads, page_size, head_dim)


class PageTable:
    def __init__(self):
        self.table = []  # token index -> (page id, slot)

    def lookup(self, token_idx):
        return self.table[token_idx]


def paged_attention(Q, pages, page_table, layer_idx, head_idx):
    K_list, V_list = [], []
    for token_idx in range(len(page_table.table)):
        page_id, slot = page_table.lookup(token_idx)
        page = pages[page_id]
        K_list.append(page.K[layer_idx, head_idx, slot])
        V_list.append(page.V[layer_idx, head_idx, slot])
    K = torch.stack(K_list, dim=0)
    V = torch.stack(V_list, dim=0)
    scores = torch.matmul(K, Q) / math.sqrt(Q.shape[0])
    weights = torch.softmax(scores, dim=0)
    return torch.sum(weights.unsqueeze(1) * V, dim=0)
