from tinygrad import Tensor


def attend(q: Tensor, k: Tensor, v: Tensor, ids: Tensor, pad: int) -> Tensor:
    # tinygrad: attn_mask True = attend (as torch's SDPA)
    keep = (ids != pad).reshape(ids.shape[0], 1, 1, ids.shape[1])
    return q.scaled_dot_product_attention(k, v, attn_mask=keep)
