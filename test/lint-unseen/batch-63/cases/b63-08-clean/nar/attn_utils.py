import torch


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(bs, seq, n_kv_heads, d) -> (bs, seq, n_kv_heads * n_rep, d)."""
    if n_rep == 1:
        return x
    bs, seq, n_kv, d = x.shape
    return x[:, :, :, None, :].expand(bs, seq, n_kv, n_rep, d).reshape(bs, seq, n_kv * n_rep, d)


# careful: torch is not consistent about what True means in a boolean mask. These helpers return
# True = may attend, which is what F.scaled_dot_product_attention expects (nn.MultiheadAttention wants the opposite).
def causal_mask(size: int, device=None) -> torch.Tensor:
    """True at (i, j) when key j is not after query i."""
    return torch.ones(size, size, device=device).tril().bool()


def no_self_mask(size: int, device=None) -> torch.Tensor:
    """False on the diagonal, True elsewhere."""
    return torch.eye(size, device=device).logical_not()
