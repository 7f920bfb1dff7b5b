# case: t8b-14-clean
# modelled-on: AndreMaz/dnn-attention https://github.com/AndreMaz/dnn-attention/commit/2be6dd02d0bd1a22f727e70c1dd2df7a38fc24cb
# label: correct
# class: clean
# pattern: a TensorFlow pointer network that learns to sort numbers: at every decoder step an additive attention scores the encoder outputs with V(tanh(W1 q + W2 enc)), squeezes the length-1 axis, subtracts 1e6 at the positions already pointed to (a running 0/1 mask of one-hot argmaxes) and applies a Keras Softmax(axis=1) layer built in __init__; a second layer returns the raw scores for a loss with logits
# why: correct: after tf.squeeze(score, axis=2) the scores are (batch, max_length), so the Softmax layer's axis=1 is the input-position axis; the mask is 1 where a position was already chosen and score -= mask * 1e6 removes exactly those (float32, well inside range; at least one position is still free at every step since there are as many steps as inputs); a pointer score needs no 1/sqrt(d)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/AndreMaz/dnn-attention https://github.com/AndreMaz/dnn-attention/commit/2be6dd02d0bd1a22f727e70c1dd2df7a38fc24cb sorting-numbers/models/pointer_masking/pointer_attention_masking.py
import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer, Softmax


class PointerAttentionMasking(Layer):
    def __init__(self, units, input_length):
        super(PointerAttentionMasking, self).__init__()
        self.input_length = input_length
        self.W1 = Dense(units)
        self.W2 = Dense(units)
        self.V = Dense(1)
        self.attention = Softmax(axis=1, name="attention")
        self.BIG_NUMBER = 1e6

    def call(self, dec_outputs, enc_outputs, dec_input):
        # dec_outputs: (batch, steps, features); enc_outputs: (batch, max_length, features)
        steps = tf.unstack(dec_outputs, axis=1)
        pointer_list = []
        mask = tf.zeros_like(dec_input)  # (batch, max_length), 1 = already pointed to

        for current_step in steps:
            query = tf.expand_dims(current_step, 1)  # (batch, 1, features)
            score = self.V(tf.nn.tanh(self.W1(query) + self.W2(enc_outputs)))  # (batch, max_length, 1)
            score = tf.squeeze(score, axis=2)  # (batch, max_length)
            score -= mask * self.BIG_NUMBER
            attention_pointer = self.attention(score)

            chosen = tf.one_hot(tf.math.argmax(attention_pointer, axis=1), self.input_length)
            mask = mask + chosen
            pointer_list.append(attention_pointer)

        pointers = tf.convert_to_tensor(pointer_list)  # (steps, batch, max_length)
        return tf.transpose(pointers, [1, 0, 2])


class PointerAttentionNoTrainer(Layer):
    def __init__(self, units, vocab_size):
        super(PointerAttentionNoTrainer, self).__init__()
        self.vocab_size = vocab_size
        self.W1 = Dense(units)
        self.W2 = Dense(units)
        self.V = Dense(1)

    def call(self, dec_output, enc_outputs):
        query = tf.expand_dims(dec_output, 1)
        score = self.V(tf.nn.tanh(self.W1(query) + self.W2(enc_outputs)))
        return tf.squeeze(score, axis=2)  # logits over the input positions
