# case: fill-linformer-causal-neg-1e10-amp
# modelled-on: tatp22/linformer-pytorch https://github.com/tatp22/linformer-pytorch/pull/19
# label: buggy
# pattern: a Linformer head's causal mask fills the projected scores with -1e10; the training helper runs the model under torch.cuda.amp.autocast (float16)
# why: -1e10 is outside float16's range, so mixed-precision training hits overflow / non-finite values; PR #19 switched to -inf
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def gen_causal_mask(input_size: int, dim_k: int, full_attention: bool = False) -> torch.Tensor:
    if full_attention:
        return (torch.triu(torch.ones(input_size, input_size)) == 1).transpose(0, 1)
    return (torch.triu(torch.ones(dim_k, input_size)) == 1).transpose(0, 1)  # (n, k), True = keep


class LinearAttentionHead(nn.Module):
    def __init__(self, dim: int, dropout: float, E_proj: nn.Linear, F_proj: nn.Linear, causal_mask: torch.Tensor = None):
        super().__init__()
        self.E = E_proj
        self.F = F_proj
        self.dim = dim
        self.dropout = nn.Dropout(dropout)
        self.causal_mask = causal_mask

    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        # Q, K, V: (B, n, dim); E, F project the sequence axis n -> k
        K = self.E(K.transpose(1, 2)).transpose(1, 2)  # (B, k, dim)
        P_bar = torch.matmul(Q, K.transpose(1, 2)) / math.sqrt(self.dim)  # (B, n, k)
        if self.causal_mask is not None:
            causal = self.causal_mask.to(Q.device)
            P_bar = P_bar.masked_fill_(~causal, -1e10)  # expect: ATT007
        P_bar = self.dropout(F.softmax(P_bar, dim=-1))
        V = self.F(V.transpose(1, 2)).transpose(1, 2)  # (B, k, dim)
        return torch.matmul(P_bar, V)


def train_epoch(model: nn.Module, loader, optimizer, scaler: torch.cuda.amp.GradScaler):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        with torch.cuda.amp.autocast():
            loss = F.cross_entropy(model(x.cuda()).transpose(1, 2), y.cuda())
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
