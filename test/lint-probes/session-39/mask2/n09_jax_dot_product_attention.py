import jax


def attend(q, k, v, ids):
    # q, k, v: (B, T, H, D); ids: (B, T)
    keep = (ids != 0)[:, None, None, :]  # (B, 1, 1, T) True = attend
    return jax.nn.dot_product_attention(q, k, v, mask=keep)
