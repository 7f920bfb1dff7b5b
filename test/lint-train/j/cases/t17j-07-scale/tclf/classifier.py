import tensorflow as tf

from tclf.multi_head_attention import MultiHeadAttention


class TransformerClassifier:
    def __init__(self, num_classes, vocab_size, sequence_length, d_model=512, d_k=64, d_v=64, h=8, num_layer=6):
        self.input_x = tf.placeholder(tf.int32, [None, sequence_length])
        self.input_y = tf.placeholder(tf.int32, [None])
        embedding = tf.get_variable("embedding", shape=[vocab_size, d_model])
        x = tf.nn.embedding_lookup(embedding, self.input_x)
        x = tf.multiply(x, tf.sqrt(tf.cast(d_model, dtype=tf.float32)))
        for layer in range(num_layer):
            with tf.variable_scope("encoder_%d" % layer):
                attn = MultiHeadAttention(x, x, x, d_model, d_k, d_v, sequence_length, h)
                x = tf.contrib.layers.layer_norm(x + attn.multi_head_attention_fn())
        pooled = tf.reduce_mean(x, axis=1)
        self.logits = tf.layers.dense(pooled, num_classes)
