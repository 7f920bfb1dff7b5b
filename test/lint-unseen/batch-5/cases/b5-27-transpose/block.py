# case: b5-27-transpose
# modelled-on: seanswyi/sasrec-pytorch https://github.com/seanswyi/sasrec-pytorch/commit/d991df5e2f9866b0ca33e516a06528f0919147e5
# label: buggy
# class: real-bug
# pattern: a SASRec reimplementation with its own single-head attention: a module projects q, k, v with nn.Linear and calls a scaled dot-product function in another module that computes q @ k, divides by sqrt(d), adds an additive triu(ones, 1) * -1e9 mask and takes the softmax over the last axis; the command-line defaults are max_seq_len = 50 and hidden_dim = 50
# why: the keys are (batch, seq_len, d) and are not transposed, so q @ k multiplies the queries' feature axis with the keys' position axis; with the default seq_len == hidden_dim == 50 the shapes agree and the model trains on meaningless scores instead of failing; commit d991df5 ("Changed to official self-attn") replaces the module with nn.MultiheadAttention
# source: https://github.com/seanswyi/sasrec-pytorch https://github.com/seanswyi/sasrec-pytorch/commit/d991df5e2f9866b0ca33e516a06528f0919147e5 src/model/scaled_dotprod_attn.py
import argparse

import torch
from torch import nn

from dotprod import scaled_dotprod_attn


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_seq_len", default=50, type=int, help="maximum number of items seen ($n$ in the paper)")
    parser.add_argument("--hidden_dim", default=50, type=int, help="embedding width")
    parser.add_argument("--dropout_p", default=0.2, type=float)
    return parser.parse_args()


class SelfAttn(nn.Module):
    def __init__(self, hidden_dim: int) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.W_q = nn.Linear(hidden_dim, hidden_dim)
        self.W_k = nn.Linear(hidden_dim, hidden_dim)
        self.W_v = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, q, k, v):
        return scaled_dotprod_attn(q=self.W_q(q), k=self.W_k(k), v=self.W_v(v), d=self.hidden_dim)


class SelfAttnBlock(nn.Module):
    def __init__(self, max_seq_len: int, hidden_dim: int, dropout_p: float) -> None:
        super().__init__()
        self.max_seq_len = max_seq_len
        self.layer_norm = nn.LayerNorm(hidden_dim)
        self.dropout = nn.Dropout(dropout_p)
        self.self_attn = SelfAttn(hidden_dim=hidden_dim)
        self.ffnn = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, hidden_dim))

    def forward(self, x: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        y = x + self.dropout(self.layer_norm(self.self_attn(q=x, k=x, v=x)))
        y = y + self.dropout(self.layer_norm(self.ffnn(y)))
        return y * padding_mask.unsqueeze(-1)


if __name__ == "__main__":
    args = get_args()
    block = SelfAttnBlock(args.max_seq_len, args.hidden_dim, args.dropout_p)
