# case: b5-28-transpose
# modelled-on: seanswyi/sasrec-pytorch https://github.com/seanswyi/sasrec-pytorch/commit/d991df5e2f9866b0ca33e516a06528f0919147e5
# label: correct
# class: fixed
# pattern: after the fix: the SASRec self-attention block uses nn.MultiheadAttention(batch_first=True, one head) and passes attn_mask = ~tril(ones, bool), True above the diagonal; the command-line defaults are still max_seq_len = 50 and hidden_dim = 50
# why: correct: nn.MultiheadAttention transposes the keys and scales by sqrt(head_dim) itself, and its boolean attn_mask is True at the positions that are not allowed to attend, so ~tril hides exactly the future items
# looks-like: ATT002, ATT005
# source: https://github.com/seanswyi/sasrec-pytorch https://github.com/seanswyi/sasrec-pytorch/commit/d991df5e2f9866b0ca33e516a06528f0919147e5 src/model/self_attn_block.py
import argparse

import torch
from torch import nn


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_seq_len", default=50, type=int, help="maximum number of items seen ($n$ in the paper)")
    parser.add_argument("--hidden_dim", default=50, type=int, help="embedding width")
    parser.add_argument("--dropout_p", default=0.2, type=float)
    return parser.parse_args()


class SelfAttnBlock(nn.Module):
    def __init__(self, max_seq_len: int, hidden_dim: int, dropout_p: float) -> None:
        super().__init__()
        self.max_seq_len = max_seq_len
        self.layer_norm = nn.LayerNorm(hidden_dim)
        self.dropout = nn.Dropout(dropout_p)
        self.self_attn = nn.MultiheadAttention(embed_dim=hidden_dim, num_heads=1, dropout=dropout_p, batch_first=True)
        self.ffnn = nn.Sequential(nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, hidden_dim))

    def forward(self, x: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        seq_len = x.shape[1]
        # True = not allowed (nn.MultiheadAttention's boolean convention)
        attention_mask = ~torch.tril(torch.ones(size=(seq_len, seq_len), dtype=torch.bool))
        attention_mask = attention_mask.to(x.device.type)
        x_attn, _ = self.self_attn(key=x, query=x, value=x, attn_mask=attention_mask)
        y = x + self.dropout(self.layer_norm(x_attn))
        y = y + self.dropout(self.layer_norm(self.ffnn(y)))
        return y * padding_mask.unsqueeze(-1)


if __name__ == "__main__":
    args = get_args()
    block = SelfAttnBlock(args.max_seq_len, args.hidden_dim, args.dropout_p)
