import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from collate import collate_graphs


class NodeAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, node_mask, pair_mask):
        q, k, v = self.qkv(x).chunk(3, -1)
        s = q @ k.transpose(1, 2) / q.shape[-1] ** 0.5
        s = s.masked_fill(~pair_mask, -1e9)  # finite: padded rows come out uniform, then zeroed
        w = s.softmax(-1) * node_mask[:, :, None]
        return w @ v


def run(ds):
    net = NodeAttention(32)
    for x, node_mask, pair_mask in DataLoader(ds, batch_size=8, collate_fn=collate_graphs):
        out = net(x, node_mask, pair_mask)
