import mlx.core as mx


def attend(q, k, v, lengths):
    # q, k, v: (B, H, S, D); a boolean mask is True where attention is allowed
    S = k.shape[2]
    keep = mx.arange(S)[None, :] < lengths[:, None]
    return mx.fast.scaled_dot_product_attention(q, k, v, scale=q.shape[-1] ** -0.5, mask=keep[:, None, None, :])
