from tinygrad import Tensor, dtypes


def causal_attention(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    T = q.shape[-2]
    future = Tensor.ones(T, T, dtype=dtypes.bool).triu(1)
    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = future.where(float("-inf"), s)
    return s.softmax(-1) @ v
