# case: softmax-textcls-tf-dense1-axis1
# modelled-on: dongjun-Lee/text-classification-models-tf https://github.com/dongjun-Lee/text-classification-models-tf/pull/1
# label: correct
# pattern: TF1 attention RNN classifier; tf.layers.dense(rnn_outputs, 1, activation=tanh) gives [B, T, 1] scores, softmax(axis=1), and the pooling is matmul(transpose(rnn_outputs, [0, 2, 1]), weights): the weights are the right operand
# why: axis=1 is the T axis of [B, T, 1], the one the matmul with the transposed outputs sums over (the merged fix)
# looks-like: ATT001, ATT003, ATT005
import tensorflow as tf
from tensorflow.contrib import rnn


class AttentionRNN(object):
    def __init__(self, vocabulary_size, document_max_len, num_class):
        self.embedding_size = 256
        self.num_hidden = 256
        self.num_layers = 2

        self.x = tf.placeholder(tf.int32, [None, document_max_len], name="x")
        self.x_len = tf.reduce_sum(tf.sign(self.x), 1)
        self.y = tf.placeholder(tf.int32, [None], name="y")

        with tf.name_scope("embedding"):
            init_embeddings = tf.random_uniform([vocabulary_size, self.embedding_size])
            self.embeddings = tf.get_variable("embeddings", initializer=init_embeddings)
            self.x_emb = tf.nn.embedding_lookup(self.embeddings, self.x)

        with tf.name_scope("birnn"):
            fw_cells = [rnn.BasicLSTMCell(self.num_hidden) for _ in range(self.num_layers)]
            bw_cells = [rnn.BasicLSTMCell(self.num_hidden) for _ in range(self.num_layers)]
            self.rnn_outputs, _, _ = rnn.stack_bidirectional_dynamic_rnn(
                fw_cells, bw_cells, self.x_emb, sequence_length=self.x_len, dtype=tf.float32)

        with tf.name_scope("attention"):
            self.attention_score = tf.nn.softmax(tf.layers.dense(self.rnn_outputs, 1, activation=tf.nn.tanh), axis=1)
            self.attention_out = tf.squeeze(
                tf.matmul(tf.transpose(self.rnn_outputs, perm=[0, 2, 1]), self.attention_score),
                axis=-1)

        with tf.name_scope("output"):
            self.logits = tf.layers.dense(self.attention_out, num_class, activation=None)
            self.predictions = tf.argmax(self.logits, -1, output_type=tf.int32)
