import torch.nn as nn

from retnet.relpos import ManhattanDecay
from retnet.retention import GridRetention


class RetentionStage(nn.Module):
    def __init__(self, dim, heads, depth, init_value=2.0, heads_range=4.0):
        super().__init__()
        self.relpos = ManhattanDecay(dim, heads, init_value, heads_range)
        self.blocks = nn.ModuleList([GridRetention(dim, heads) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])

    def forward(self, x):
        _, h, w, _ = x.size()
        rel_pos = self.relpos((h, w))
        for norm, blk in zip(self.norms, self.blocks):
            x = x + blk(norm(x), rel_pos)
        return x
