# case: b20-05-clean
# modelled-on: THUDM/ComiRec https://github.com/THUDM/ComiRec/commit/a576eed8b605a531f2971136ce6ae87739d47693
# label: correct
# class: clean
# pattern: multi-interest sequential recommenders in TensorFlow 1: the dynamic-routing extractor keeps routing logits of shape (batch, num_interest, seq_len), softmaxes them over axis=1 (the interests) and then zeroes the padded history items with tf.where(tf.equal(mask, 0), zeros, weights); the self-attentive extractor scores the items per head, writes -2**32 + 1 at the padded items with tf.where before a softmax over the last axis (the items)
# why: correct: routing coefficients are normalised over the output capsules (interests), so zeroing the padded items after that softmax removes their votes without breaking any normalisation that should hold over items; in the self-attentive path the mask goes in before the softmax over the items, with a fill that float32 holds; the history mask is 1 on real items
# looks-like: ATT001, ATT006, ATT007
# source: https://github.com/THUDM/ComiRec https://github.com/THUDM/ComiRec/commit/a576eed8b605a531f2971136ce6ae87739d47693 src/model.py
import tensorflow as tf


class RoutingExtractor(object):
    def __init__(self, dim, seq_len, num_interest=4, iterations=3):
        self.dim = dim
        self.seq_len = seq_len
        self.num_interest = num_interest
        self.iterations = iterations

    def __call__(self, item_his_emb, mask):
        # item_his_emb: [N, T, dim]; mask: [N, T], 1 for real items and 0 for padding
        with tf.variable_scope("bilinear"):
            hat = tf.layers.dense(item_his_emb, self.dim * self.num_interest, activation=None)
        hat = tf.reshape(hat, [-1, self.seq_len, self.num_interest, self.dim])
        hat = tf.transpose(hat, [0, 2, 1, 3])  # [N, K, T, dim]
        hat_iter = tf.stop_gradient(hat)

        routing_logits = tf.stop_gradient(tf.zeros([tf.shape(item_his_emb)[0], self.num_interest, self.seq_len]))
        for i in range(self.iterations):
            item_mask = tf.tile(tf.expand_dims(mask, axis=1), [1, self.num_interest, 1])
            zeros = tf.zeros_like(item_mask)
            coupling = tf.nn.softmax(routing_logits, axis=1)  # over the interests
            coupling = tf.where(tf.equal(item_mask, 0), zeros, coupling)
            coupling = tf.expand_dims(coupling, 2)  # [N, K, 1, T]

            source = hat_iter if i < self.iterations - 1 else hat
            caps = tf.matmul(coupling, source)  # [N, K, 1, dim]
            norm = tf.reduce_sum(tf.square(caps), -1, True)
            caps = norm / (1 + norm) / tf.sqrt(norm + 1e-9) * caps
            if i < self.iterations - 1:
                delta = tf.matmul(hat_iter, tf.transpose(caps, [0, 1, 3, 2]))
                routing_logits = routing_logits + tf.reshape(delta, [-1, self.num_interest, self.seq_len])
        return tf.reshape(caps, [-1, self.num_interest, self.dim])


def self_attentive_interests(item_list_emb, mask, hidden_size, num_heads):
    # item_list_emb: [N, T, dim]; mask: [N, T], 1 for real items
    with tf.variable_scope("self_atten", reuse=tf.AUTO_REUSE):
        hidden = tf.layers.dense(item_list_emb, hidden_size * 4, activation=tf.nn.tanh)
        att_w = tf.layers.dense(hidden, num_heads, activation=None)  # [N, T, H]
        att_w = tf.transpose(att_w, [0, 2, 1])  # [N, H, T]
        item_mask = tf.tile(tf.expand_dims(mask, axis=1), [1, num_heads, 1])
        paddings = tf.ones_like(item_mask) * (-2 ** 32 + 1)
        att_w = tf.where(tf.equal(item_mask, 0), paddings, att_w)
        att_w = tf.nn.softmax(att_w)
        return tf.matmul(att_w, item_list_emb)  # [N, H, dim]


def readout(interests, target_emb, num_interest, dim):
    scores = tf.matmul(interests, tf.reshape(target_emb, [-1, dim, 1]))
    scores = tf.nn.softmax(tf.reshape(scores, [-1, num_interest]))
    best = tf.argmax(scores, axis=1, output_type=tf.int32) + tf.range(tf.shape(interests)[0]) * num_interest
    return tf.gather(tf.reshape(interests, [-1, dim]), best)
