# case: softmax-esim-tf-transpose-all-axes
# modelled-on: HsiaoYetGun/ESIM https://github.com/HsiaoYetGun/ESIM/issues/10
# label: buggy
# pattern: ESIM's soft alignment in TensorFlow: the (B, La, Lb) alignment scores are normalised for each side; for the second side the code transposes them with tf.transpose and no perm, which reverses all three axes, then takes tf.nn.softmax over the default last axis
# why: tf.transpose without perm turns (B, La, Lb) into (Lb, La, B), so the default axis=-1 is the batch axis: the weights for b are normalised across examples instead of over a's positions (the fix is perm=[0, 2, 1])
import tensorflow as tf


def local_inference(a_bar, b_bar, a_mask, b_mask):
    """a_bar: (B, La, H) and b_bar: (B, Lb, H) encoder states; masks are 1.0 at real tokens."""
    attention_weights = tf.matmul(a_bar, b_bar, transpose_b=True)  # (B, La, Lb)
    attention_a = tf.nn.softmax(attention_weights + (1.0 - b_mask[:, None, :]) * -1e9)
    attention_b = tf.nn.softmax(tf.transpose(attention_weights))  # expect: ATT001
    a_hat = tf.matmul(attention_a, b_bar)  # (B, La, H)
    b_hat = tf.matmul(tf.transpose(attention_b, perm=[2, 0, 1]), a_bar)
    return a_hat, b_hat
