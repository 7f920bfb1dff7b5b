import torch
import torch.nn.functional as F


def gat_attention(e, adj, Wh):
    # e: (N, N) raw scores; adj: (N, N) 0/1
    zero_vec = -9e15 * torch.ones_like(e)
    attention = torch.where(adj > 0, e, zero_vec)
    return F.softmax(attention, dim=1) @ Wh
