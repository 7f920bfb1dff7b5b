import paddle
import paddle.nn.functional as F


def attention(q, k, v, ids, pad_id):
    # q, k, v: [B, H, S, D]
    scores = paddle.matmul(q, k, transpose_y=True) / q.shape[-1] ** 0.5
    bias = paddle.cast(ids == pad_id, "float32").unsqueeze([1, 2]) * -1e4
    return paddle.matmul(F.softmax(scores + bias, axis=-1), v)
