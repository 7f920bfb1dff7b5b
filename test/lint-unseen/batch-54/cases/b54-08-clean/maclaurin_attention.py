import torch
import torch.nn as nn


def causal_linear_attention(phi_q, phi_k, v, floor=1.0):
    """Causal attention with non-negative feature maps: prefix sums instead of a softmax.

    phi_q, phi_k: [B, H, L, P] features, v: [B, H, L, D]
    """
    kv = torch.cumsum(torch.einsum("bhlp,bhld->bhlpd", phi_k, v), dim=2)
    num = torch.einsum("bhlpd,bhlp->bhld", kv, phi_q)
    k_run = torch.cumsum(phi_k, dim=2)
    den = torch.einsum("bhlp,bhlp->bhl", phi_q, k_run).clamp_min(floor)
    return num / den.unsqueeze(-1)


class MaclaurinFeatureAttention(nn.Module):
    """Random Maclaurin features of a dot-product kernel, then causal linear attention."""

    def __init__(self, head_dim, projector, dropout=0.0):
        super().__init__()
        self.head_dim = head_dim
        self.projector = projector  # maps [..., head_dim] -> [..., n_features], non-negative
        self.drop = nn.Dropout(dropout)

    def forward(self, q, k, v, keep):
        # q, k, v: [B, H, L, head_dim]; keep: [B, L] float, 1 = real token, 0 = padding
        d = q.shape[-1]
        # d ** -0.25 on each side makes the kernel's argument q.k / sqrt(d)
        root = d ** -0.25
        fq = self.projector(q * root)
        fk = self.projector(k * root)
        if keep is not None:
            # a zero feature vector adds nothing to the prefix sums: padded keys drop out
            fk = fk.masked_fill(keep[:, None, :, None] == 0, 0)
        return causal_linear_attention(fq, fk, v)
