# case: softmax-esim-tf-transpose-perm
# modelled-on: HsiaoYetGun/ESIM https://github.com/HsiaoYetGun/ESIM/issues/10
# label: correct
# pattern: ESIM's soft alignment with the second side normalised after tf.transpose(..., perm=[0, 2, 1]): the batch axis stays first and the default softmax axis is then a's positions
# why: perm=[0, 2, 1] swaps only the two sequence axes, so tf.nn.softmax over the last axis normalises each b position over the La positions of its own example, as the paper intends; no scale is applied by design (ESIM aligns with a plain dot product)
# looks-like: ATT001, ATT003, ATT007
import tensorflow as tf


def local_inference(a_bar, b_bar, a_mask, b_mask):
    """a_bar: (B, La, H) and b_bar: (B, Lb, H) encoder states; masks are 1.0 at real tokens."""
    attention_weights = tf.matmul(a_bar, b_bar, transpose_b=True)  # (B, La, Lb)
    attention_a = tf.nn.softmax(attention_weights + (1.0 - b_mask[:, None, :]) * -1e9)
    attention_b = tf.nn.softmax(tf.transpose(attention_weights, perm=[0, 2, 1]))  # (B, Lb, La)
    a_hat = tf.matmul(attention_a, b_bar)  # (B, La, H)
    b_hat = tf.matmul(attention_b, a_bar)  # (B, Lb, H)
    return a_hat, b_hat
