import torch


def rotate_qk(q, k, freqs):
    """Rotary embedding on (B, T, H, D) tensors; freqs is a complex (T, D // 2) table."""
    qc = torch.view_as_complex(q.float().reshape(*q.shape[:-1], -1, 2))
    kc = torch.view_as_complex(k.float().reshape(*k.shape[:-1], -1, 2))
    f = freqs[None, :, None, :]
    q_out = torch.view_as_real(qc * f).flatten(3)
    k_out = torch.view_as_real(kc * f).flatten(3)
    return q_out.type_as(q), k_out.type_as(k)
