# case: b3-13-clean
# modelled-on: 30stomercury/Interaction-Aware-Attention-Network https://github.com/30stomercury/Interaction-Aware-Attention-Network/commit/4d92f56ff3364308137a273e28a8772392431c9e
# label: correct
# class: clean
# pattern: TensorFlow 1 Bahdanau-style attention of an utterance GRU over its frames, conditioned on the previous utterances of the two speakers: scores vu of shape (batch, time) from tensordot, a 0/1 frame mask from tf.sign of the feature sum, tf.where(mask == 0, -1e9, scores), then tf.nn.softmax with the default axis
# why: the scores are 2-D, so the default last axis is the time axis; the mask is a keep mask and the fill goes where it is 0; the graph runs in float32, where -1e9 (written -10e8) is safe; every utterance has at least one non-zero frame
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/30stomercury/Interaction-Aware-Attention-Network https://github.com/30stomercury/Interaction-Aware-Attention-Network/commit/4d92f56ff3364308137a273e28a8772392431c9e model.py
import tensorflow as tf


def interaction_aware_attention(out, h_p, h_r, current_utt, attention_size):
    """out: (batch, time, hidden) GRU states of the current utterance; h_p, h_r: the previous utterances' states."""
    hidden_size = out.shape[-1].value
    W_c = tf.Variable(tf.random_normal([hidden_size, attention_size], stddev=0.1))
    W_p = tf.Variable(tf.random_normal([hidden_size, attention_size], stddev=0.1))
    W_r = tf.Variable(tf.random_normal([hidden_size, attention_size], stddev=0.1))
    b = tf.Variable(tf.random_normal([attention_size], stddev=0.1))
    u = tf.Variable(tf.random_normal([attention_size], stddev=0.1))

    v = tf.nn.tanh(tf.tensordot(out, W_c, axes=1) + tf.tensordot(h_p, W_p, axes=1) + tf.tensordot(h_r, W_r, axes=1) + b)
    vu = tf.tensordot(v, u, axes=1)  # [batch_size, sequence_len]

    # mask attention weights: padded frames are all-zero feature vectors
    mask_att = tf.sign(tf.abs(tf.reduce_sum(current_utt, axis=-1)))  # [batch_size, sequence_len]
    paddings = tf.ones_like(mask_att) * (-10e8)
    vu = tf.where(tf.equal(mask_att, 0), paddings, vu)
    alphas = tf.nn.softmax(vu)  # [batch_size, sequence_len]

    # context vector: weighted sum over the frames
    return tf.reduce_sum(out * tf.expand_dims(alphas, -1), 1)


def additive_attention(inputs1, inputs2, attention_size):
    """Unmasked additive attention of inputs1 (batch, time, hidden) conditioned on inputs2."""
    hidden_size = int(inputs1.shape[-1])
    W1 = tf.Variable(tf.random_normal([hidden_size, attention_size], stddev=0.1))
    W2 = tf.Variable(tf.random_normal([hidden_size, attention_size], stddev=0.1))
    b = tf.Variable(tf.random_normal([attention_size], stddev=0.1))
    u = tf.Variable(tf.random_normal([attention_size], stddev=0.1))
    v = tf.nn.tanh(tf.tensordot(inputs1, W1, axes=1) + tf.tensordot(inputs2, W2, axes=1) + b)
    vu = tf.tensordot(v, u, axes=1)  # (batch, time)
    alphas = tf.nn.softmax(vu)
    return tf.reduce_sum(inputs1 * tf.expand_dims(alphas, -1), 1)
