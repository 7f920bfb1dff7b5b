# case: clean-gpt2-tf-multiplicative-mask-past
# modelled-on: openai/gpt-2 https://github.com/openai/gpt-2/blob/master/src/model.py
# label: correct
# class: clean
# pattern: TF1 GPT-2 attention with a hand-written softmax helper, keys concatenated with the cached past, a 0/1 lower-right-aligned band mask applied as w*b - 1e10*(1-b), and the scale taken from v's feature size through tf.rsqrt
# why: the mask multiplies the scores by b and subtracts 1e10 where b is 0, which is masking before the softmax, not a 0/1 multiply left alone; attention_mask counts from the lower right corner (i >= j - ns + nd), so new queries see all cached keys; v and k have the same head size, so rsqrt of it is 1/sqrt(d_head); the model runs in float32, where 1e10 is representable
# looks-like: ATT002, ATT004, ATT006, ATT007, ATT008
# source: https://github.com/openai/gpt-2 https://github.com/openai/gpt-2/commit/9b63575ef42771a015060c964af2c3da4cf7c8ab src/model.py
import tensorflow as tf


def shape_list(x):
    """Deal with dynamic shape in tensorflow cleanly."""
    static = x.shape.as_list()
    dynamic = tf.shape(x)
    return [dynamic[i] if s is None else s for i, s in enumerate(static)]


def softmax(x, axis=-1):
    x = x - tf.reduce_max(x, axis=axis, keepdims=True)
    ex = tf.exp(x)
    return ex / tf.reduce_sum(ex, axis=axis, keepdims=True)


def split_states(x, n):
    *start, m = shape_list(x)
    return tf.reshape(x, start + [n, m // n])


def merge_states(x):
    *start, a, b = shape_list(x)
    return tf.reshape(x, start + [a * b])


def attention_mask(nd, ns, *, dtype):
    """1's in the lower triangle, counting from the lower right corner."""
    i = tf.range(nd)[:, None]
    j = tf.range(ns)
    m = i >= j - ns + nd
    return tf.cast(m, dtype)


def attn(x, c_attn, c_proj, n_head, *, past):
    def split_heads(x):
        # From [batch, sequence, features] to [batch, heads, sequence, features]
        return tf.transpose(split_states(x, n_head), [0, 2, 1, 3])

    def merge_heads(x):
        return merge_states(tf.transpose(x, [0, 2, 1, 3]))

    def mask_attn_weights(w):
        # w has shape [batch, heads, dst_sequence, src_sequence], where information flows from src to dst.
        _, _, nd, ns = shape_list(w)
        b = attention_mask(nd, ns, dtype=w.dtype)
        b = tf.reshape(b, [1, 1, nd, ns])
        w = w * b - tf.cast(1e10, w.dtype) * (1 - b)
        return w

    def multihead_attn(q, k, v):
        w = tf.matmul(q, k, transpose_b=True)
        w = w * tf.rsqrt(tf.cast(v.shape[-1].value, w.dtype))
        w = mask_attn_weights(w)
        w = softmax(w)
        return tf.matmul(w, v)

    c = c_attn(x)
    q, k, v = map(split_heads, tf.split(c, 3, axis=2))
    present = tf.stack([k, v], axis=1)
    if past is not None:
        pk, pv = tf.unstack(past, axis=1)
        k = tf.concat([pk, k], axis=-2)
        v = tf.concat([pv, v], axis=-2)
    a = multihead_attn(q, k, v)
    a = merge_heads(a)
    return c_proj(a), present
