import torch
import torch.nn as nn

from tst.encoder import Encoder
from tst.patching import make_patches, num_patches


class PatchTST(nn.Module):
    def __init__(self, n_vars, seq_len=336, pred_len=96, patch_len=16, stride=8, d_model=128, n_heads=16, n_layers=3):
        super().__init__()
        self.n_vars, self.patch_len, self.stride = n_vars, patch_len, stride
        n = num_patches(seq_len, patch_len, stride)
        self.embed = nn.Linear(patch_len, d_model)
        self.pos = nn.Parameter(torch.empty(n, d_model).uniform_(-0.02, 0.02))
        self.encoder = Encoder(n_layers, d_model=d_model, n_heads=n_heads, d_ff=256)
        self.head = nn.Linear(n * d_model, pred_len)

    def forward(self, x):  # [batch, seq_len, n_vars]
        b = x.size(0)
        z = self.encoder(self.embed(make_patches(x, self.patch_len, self.stride)) + self.pos)
        y = self.head(z.flatten(1))  # [b * n_vars, pred_len]
        return y.view(b, self.n_vars, -1).permute(0, 2, 1)
