# case: t44ee-04-clean
# modelled-on: JRC1995/Machine-Translation-Transformers https://github.com/JRC1995/Machine-Translation-Transformers/commit/5ad395d208c0fbbca206864278d91776816421a9
# label: correct
# class: clean
# pattern: a TensorFlow 1 translation Transformer whose decoder runs once per output step on the whole (fixed-length) target buffer: masks for every step are pre-built in NumPy, mask i holds -2**30 in every row and every column at or after position i (the not-yet-predicted part), fed through a placeholder and added to the scaled scores of the step's attention; the key is transposed explicitly with `tf.transpose(K, [0, 2, 1])`
# why: correct for the rule classes: the additive mask is finite (-2**30 in float32), so the rows it fills entirely (queries not yet produced) come out uniform, not NaN, and their outputs are never read at that step; the columns it fills hide the unpredicted keys from every real query; `[0, 2, 1]` swaps the length and feature axes of a 3-D key
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/JRC1995/Machine-Translation-Transformers https://github.com/JRC1995/Machine-Translation-Transformers/commit/5ad395d208c0fbbca206864278d91776816421a9 Machine Translation.py
import numpy as np
import tensorflow as tf

word_dim = 300
n_heads = 8

drop_keep = tf.placeholder(tf.float32)
step_masks = tf.placeholder(tf.float32, [None, None, None])


def make_step_masks(out_len):
    """Mask i-1 is used once i output tokens exist: positions i.. are not predicted yet."""
    masks = np.zeros((out_len - 1, out_len, out_len), dtype=np.float32)
    for i in range(1, out_len):
        m = np.zeros((out_len, out_len), dtype=np.float32)
        m[i:out_len, :] = -2 ** 30
        m[:, i:out_len] = -2 ** 30
        masks[i - 1] = m
    return masks


def attend(Q, K, V, d, filled=0, masked=False):
    K = tf.transpose(K, [0, 2, 1])
    d = tf.cast(d, tf.float32)
    logits = tf.div(tf.matmul(Q, K), tf.sqrt(d))
    if masked:
        logits = logits + step_masks[filled - 1]
    return tf.matmul(tf.nn.dropout(tf.nn.softmax(logits), drop_keep), V)


def multi_head(Q, K, V, d, w, filled=0, masked=False):
    Q2 = tf.reshape(Q, [-1, tf.shape(Q)[2]])
    K2 = tf.reshape(K, [-1, tf.shape(Q)[2]])
    V2 = tf.reshape(V, [-1, tf.shape(Q)[2]])
    heads = []
    for i in range(n_heads):
        q = tf.reshape(tf.matmul(Q2, w["Wq"][i]), [tf.shape(Q)[0], tf.shape(Q)[1], d])
        k = tf.reshape(tf.matmul(K2, w["Wk"][i]), [tf.shape(K)[0], tf.shape(K)[1], d])
        v = tf.reshape(tf.matmul(V2, w["Wv"][i]), [tf.shape(V)[0], tf.shape(V)[1], d])
        heads.append(attend(q, k, v, d, filled, masked))
    joined = tf.reshape(tf.concat(heads, 2), [-1, n_heads * d])
    out = tf.matmul(joined, w["Wo"])
    return tf.reshape(out, [tf.shape(Q)[0], tf.shape(Q)[1], word_dim])
