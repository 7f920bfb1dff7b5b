import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def run(q, k, v):
    # q, k, v: (B, H, S, D)
    S = q.shape[-2]
    block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=S, KV_LEN=S)
    return flex_attention(q, k, v, block_mask=block_mask)
