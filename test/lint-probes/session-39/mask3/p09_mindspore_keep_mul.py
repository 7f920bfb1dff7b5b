import mindspore.numpy as mnp
import mindspore.ops as ops


def attention(q, k, v, input_mask):
    # input_mask: (B, S) 1 = token; MindSpore BERT's adder: (1 - mask) * -10000
    scores = ops.matmul(q, k.swapaxes(-1, -2)) / mnp.sqrt(q.shape[-1])
    adder = (1.0 - ops.cast(input_mask[:, None, None, :], q.dtype)) * -10000.0
    return ops.matmul(ops.softmax(scores + adder, axis=-1), v)
