import torch
import torch.nn as nn


class FoldedAtLoad(nn.Module):
    """The checkpoint holds unscaled q weights; the scale is folded into them when the state dict is loaded."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self._register_load_state_dict_pre_hook(self._fold_scale)

    def _fold_scale(self, state_dict, prefix, *args):
        s = self.head_dim ** -0.5
        state_dict[prefix + "wq.weight"] = state_dict[prefix + "wq.weight"] * s
        state_dict[prefix + "wq.bias"] = state_dict[prefix + "wq.bias"] * s

    def forward(self, x):
        B, N, C = x.shape
        q = self.wq(x).reshape(B, N, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).reshape(B, N, self.heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).reshape(B, N, self.heads, self.head_dim).transpose(1, 2)
        a = (q @ k.transpose(-2, -1)).softmax(dim=-1)  # scale already in wq
        return (a @ v).transpose(1, 2).reshape(B, N, C)
