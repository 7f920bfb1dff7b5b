import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def run(q, k, v, lengths):
    # q, k, v: (B, H, S, D); lengths: (B,)
    B, _, S, _ = q.shape

    def not_padding(b, h, q_idx, kv_idx):
        return kv_idx < lengths[b]

    block_mask = create_block_mask(not_padding, B=B, H=None, Q_LEN=S, KV_LEN=S)
    return flex_attention(q, k, v, block_mask=block_mask)
