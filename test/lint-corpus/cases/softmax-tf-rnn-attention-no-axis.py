# case: softmax-tf-rnn-attention-no-axis
# modelled-on: ilivans/tf-rnn-attention https://github.com/ilivans/tf-rnn-attention/issues/8
# label: correct
# pattern: attention pooling over RNN outputs: tf.nn.softmax called without an axis on (B, T) scores
# why: tf.nn.softmax defaults to the last axis, which is T here; additive scoring needs no sqrt(d) scale
# looks-like: ATT001, ATT003
import tensorflow as tf


def attention(inputs, attention_size, time_major=False, return_alphas=False):
    """inputs: (B, T, D) RNN outputs, or a (fw, bw) tuple from a bidirectional RNN."""
    if isinstance(inputs, tuple):
        inputs = tf.concat(inputs, 2)
    if time_major:
        inputs = tf.transpose(inputs, [1, 0, 2])  # (T, B, D) -> (B, T, D)

    hidden_size = inputs.shape[2]
    w_omega = tf.Variable(tf.random.normal([hidden_size, attention_size], stddev=0.1))
    b_omega = tf.Variable(tf.random.normal([attention_size], stddev=0.1))
    u_omega = tf.Variable(tf.random.normal([attention_size], stddev=0.1))

    v = tf.tanh(tf.tensordot(inputs, w_omega, axes=1) + b_omega)  # (B, T, A)
    vu = tf.tensordot(v, u_omega, axes=1, name="vu")  # (B, T)
    alphas = tf.nn.softmax(vu, name="alphas")  # (B, T)

    output = tf.reduce_sum(inputs * tf.expand_dims(alphas, -1), 1)  # (B, D)
    if not return_alphas:
        return output
    return output, alphas
