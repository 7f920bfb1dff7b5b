import torch


def masked_attention(q, k, v, lengths):
    # q, k, v: (B, T, D); lengths: (B,)
    T = k.size(1)
    keep = (torch.arange(T, device=k.device)[None, :] < lengths[:, None]).float()[:, None, :]  # (B, 1, T)
    s = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    s = s * keep + (1.0 - keep) * -1e9
    return torch.bmm(s.softmax(-1), v)
