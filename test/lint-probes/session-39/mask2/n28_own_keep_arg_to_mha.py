import torch.nn as nn


class CrossBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, 8, batch_first=True)

    def forward(self, x, ctx, ctx_keep):
        # ctx_keep: (B, S) bool, True at real context tokens
        return self.mha(x, ctx, ctx, key_padding_mask=ctx_keep.logical_not())[0]


def run(block, x, ctx, ctx_ids):
    return block(x, ctx, ctx_ids != 0)
