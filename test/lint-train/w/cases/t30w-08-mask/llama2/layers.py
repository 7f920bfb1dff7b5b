# case: t30w-08-mask
# modelled-on: skyloevil/llm-scratch-pytorch https://github.com/skyloevil/llm-scratch-pytorch/commit/bfaaf064ca1c81d1fbc97068215ba27de98c2151
# label: buggy
# class: real-bug
# pattern: a bilingual-commented LLaMA 2 re-implementation split here over two modules: the transformer module (one token per call, asserted, with start_pos selecting the rotary frequencies) builds an additive causal mask as torch.triu(torch.full((seq_len, seq_len), -inf), diagonal=1) and hands it to every layer; the attention module, here, treats it as a keep mask: scores.masked_fill_(mask == 0, -inf) before the softmax
# why: buggy: the mask is additive (0 where a key may be seen, -inf on future keys), so mask == 0 is True exactly on the allowed keys and the fill blocks them; with the asserted single token the (1, 1) mask is [[0.]], every score becomes -inf and the softmax returns NaN for every head; the fill should use the blocked entries (mask == -inf, or add the mask to the scores); no later commit changes it
# source: https://github.com/skyloevil/llm-scratch-pytorch https://github.com/skyloevil/llm-scratch-pytorch/commit/bfaaf064ca1c81d1fbc97068215ba27de98c2151 pytorch_llama2_from_scratch/model.py
import math
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class ModelArgs:
    dim: int = 4096
    n_layers: int = 32
    n_heads: int = 32
    n_kv_heads: Optional[int] = None
    vocab_size: int = -1  # set from the tokenizer
    norm_eps: float = 1e-5
    max_seq_len: int = 2048


def apply_rotary_embeddings(x: torch.Tensor, freqs_complex: torch.Tensor) -> torch.Tensor:
    # (B, S, H, D) -> (B, S, H, D/2) complex, rotated by the position's frequencies
    x_complex = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    rotated = x_complex * freqs_complex.unsqueeze(0).unsqueeze(2)
    return torch.view_as_real(rotated).reshape(*x.shape).type_as(x)


class SelfAttention(nn.Module):
    def __init__(self, args: ModelArgs) -> None:
        super().__init__()
        self.n_heads = args.n_heads
        self.n_kv_heads = args.n_heads if args.n_kv_heads is None else args.n_kv_heads
        self.head_dim = args.dim // args.n_heads
        self.wq = nn.Linear(args.dim, args.n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(args.n_heads * self.head_dim, args.dim, bias=False)

    def forward(self, x: torch.Tensor, freqs_complex: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        batch_size, seq_len, _ = x.shape
        xq = self.wq(x).view(batch_size, seq_len, self.n_heads, self.head_dim)
        xk = self.wk(x).view(batch_size, seq_len, self.n_kv_heads, self.head_dim)
        xv = self.wv(x).view(batch_size, seq_len, self.n_kv_heads, self.head_dim)
        xq = apply_rotary_embeddings(xq, freqs_complex)
        xk = apply_rotary_embeddings(xk, freqs_complex)

        if self.n_kv_heads < self.n_heads:  # grouped-query attention: share each K/V head
            n_rep = self.n_heads // self.n_kv_heads
            xk = xk.repeat_interleave(n_rep, dim=2)
            xv = xv.repeat_interleave(n_rep, dim=2)

        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)  # (B, H, S, D)
        scores = torch.matmul(xq, xk.transpose(2, 3)) / math.sqrt(self.head_dim)
        scores.masked_fill_(mask == 0, float("-inf"))  # expect: ATT002
        scores = F.softmax(scores, dim=-1).type_as(xq)
        output = torch.matmul(scores, xv)
        output = output.transpose(1, 2).contiguous().view(batch_size, seq_len, -1)
        return self.wo(output)
