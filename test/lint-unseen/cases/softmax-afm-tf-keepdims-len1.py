# case: softmax-afm-tf-keepdims-len1
# modelled-on: hexiangnan/attentional_factorization_machine https://github.com/hexiangnan/attentional_factorization_machine/issues/19
# label: buggy
# class: real-bug
# pattern: TF1 attentional factorisation machine: the pairwise interactions are stacked and transposed to (None, M'(M'-1)/2, K), scored by a small MLP and reduced with reduce_sum(..., 2, keep_dims=True) to (None, M'(M'-1)/2, 1); the commented-out code next to it normalises over axis 1
# why: tf.nn.softmax without an axis normalises over the last axis, which keep_dims=True made length 1, so every attention weight is exactly 1 and the "attention" is a plain sum; the paper and the author's own commented-out version normalise over the interactions (axis 1)
# source: https://github.com/hexiangnan/attentional_factorization_machine https://github.com/hexiangnan/attentional_factorization_machine/commit/09c6756788a4fb78a4283271876fd81344c67bf3 code/AFM.py
import numpy as np
import tensorflow as tf


class AFM(object):
    def __init__(self, features_M, attention, hidden_factor, valid_dimension, random_seed=2016):
        self.features_M = features_M
        self.attention = attention
        self.hidden_factor = hidden_factor
        self.valid_dimension = valid_dimension
        self.random_seed = random_seed
        self._init_graph()

    def _init_graph(self):
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.set_random_seed(self.random_seed)
            self.train_features = tf.placeholder(tf.int32, shape=[None, None], name="train_features_afm")  # None * features_M
            self.dropout_keep = tf.placeholder(tf.float32, shape=[None], name="dropout_keep_afm")
            self.weights = self._initialize_weights()

            self.nonzero_embeddings = tf.nn.embedding_lookup(self.weights['feature_embeddings'], self.train_features)  # None * M' * K

            element_wise_product_list = []
            for i in range(0, self.valid_dimension):
                for j in range(i + 1, self.valid_dimension):
                    element_wise_product_list.append(tf.multiply(self.nonzero_embeddings[:, i, :], self.nonzero_embeddings[:, j, :]))
            self.element_wise_product = tf.stack(element_wise_product_list)  # (M'*(M'-1)) * None * K
            self.element_wise_product = tf.transpose(self.element_wise_product, perm=[1, 0, 2])  # None * (M'*(M'-1)) * K

            num_interactions = self.valid_dimension * (self.valid_dimension - 1) / 2
            if self.attention:
                self.attention_mul = tf.reshape(tf.matmul(tf.reshape(self.element_wise_product, shape=[-1, self.hidden_factor[1]]),
                    self.weights['attention_W']), shape=[-1, num_interactions, self.hidden_factor[0]])
                # self.attention_exp = tf.exp(tf.reduce_sum(tf.multiply(self.weights['attention_p'], tf.nn.relu(self.attention_mul +
                #     self.weights['attention_b'])), 2, keep_dims=True))  # None * (M'*(M'-1)) * 1
                # self.attention_sum = tf.reduce_sum(self.attention_exp, 1, keep_dims=True)  # None * 1 * 1
                # self.attention_out = tf.div(self.attention_exp, self.attention_sum)  # None * (M'*(M'-1)) * 1
                self.attention_relu = tf.reduce_sum(tf.multiply(self.weights['attention_p'], tf.nn.relu(self.attention_mul +
                    self.weights['attention_b'])), 2, keep_dims=True)  # None * (M'*(M'-1)) * 1
                self.attention_out = tf.nn.softmax(self.attention_relu)  # expect: ATT001
                self.attention_out = tf.nn.dropout(self.attention_out, self.dropout_keep[0])

            if self.attention:
                self.AFM = tf.reduce_sum(tf.multiply(self.attention_out, self.element_wise_product), 1, name="afm")  # None * K
            else:
                self.AFM = tf.reduce_sum(self.element_wise_product, 1, name="afm")  # None * K
            self.prediction = tf.matmul(self.AFM, self.weights['prediction'])  # None * 1

    def _initialize_weights(self):
        all_weights = dict()
        all_weights['feature_embeddings'] = tf.Variable(
            tf.random_normal([self.features_M, self.hidden_factor[1]], 0.0, 0.01), name='feature_embeddings')
        glorot = np.sqrt(2.0 / (self.hidden_factor[0] + self.hidden_factor[1]))
        all_weights['attention_W'] = tf.Variable(
            np.random.normal(loc=0, scale=glorot, size=(self.hidden_factor[1], self.hidden_factor[0])), dtype=np.float32)
        all_weights['attention_b'] = tf.Variable(
            np.random.normal(loc=0, scale=glorot, size=(1, self.hidden_factor[0])), dtype=np.float32)
        all_weights['attention_p'] = tf.Variable(
            np.random.normal(loc=0, scale=1, size=(self.hidden_factor[0])), dtype=np.float32)
        all_weights['prediction'] = tf.Variable(np.ones((self.hidden_factor[1], 1), dtype=np.float32))
        return all_weights
