import torch
import torch.nn.functional as F


def attend(q, k, v, q_pos, k_pos, prefix_len):
    # q: (B, H, L, D) at positions q_pos (L,); k, v: (B, H, S, D) cached+new at positions k_pos (S,)
    causal = k_pos[None, :] <= q_pos[:, None]
    bidirectional = (k_pos[None, :] < prefix_len) & (q_pos[:, None] < prefix_len)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=causal | bidirectional)
