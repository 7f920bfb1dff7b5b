import math
import torch
import torch.nn as nn

from config import ModelConfig


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.W_Q = nn.Parameter(torch.empty(cfg.n_heads, cfg.d_model, cfg.d_head))
        self.W_K = nn.Parameter(torch.empty(cfg.n_heads, cfg.d_model, cfg.d_head))
        self.W_V = nn.Parameter(torch.empty(cfg.n_heads, cfg.d_model, cfg.d_head))
        self.W_O = nn.Parameter(torch.empty(cfg.n_heads, cfg.d_head, cfg.d_model))

    def forward(self, resid):
        q = torch.einsum("bpm,nmh->bpnh", resid, self.W_Q)
        k = torch.einsum("bpm,nmh->bpnh", resid, self.W_K)
        v = torch.einsum("bpm,nmh->bpnh", resid, self.W_V)
        attn_scores = torch.einsum("bqnh,bknh->bnqk", q, k) / math.sqrt(self.cfg.d_head)
        T = resid.shape[1]
        mask = torch.triu(torch.ones(T, T, device=resid.device, dtype=torch.bool), diagonal=1)
        attn_scores = attn_scores.masked_fill(mask, -1e5)
        pattern = attn_scores.softmax(dim=-1)
        z = torch.einsum("bnqk,bknh->bqnh", pattern, v)
        return torch.einsum("bqnh,nhm->bqm", z, self.W_O)
