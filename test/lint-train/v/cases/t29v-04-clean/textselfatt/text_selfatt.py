import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import GRU, Bidirectional, Dense, Embedding

from .attention import MultiHeadAttention


def point_wise_feed_forward_network(dense_size):
    ffn = tf.keras.Sequential()
    for size in dense_size:
        ffn.add(Dense(size, activation="relu"))
    return ffn


class TextSelfAtt(Model):
    def __init__(self, maxlen, max_features, embedding_dims, class_num, last_activation="softmax", dense_size=None):
        super(TextSelfAtt, self).__init__()
        self.maxlen = maxlen
        self.dense_size = dense_size
        self.embedding = Embedding(input_dim=max_features, output_dim=embedding_dims, input_length=maxlen)
        self.attention = MultiHeadAttention(d_model=embedding_dims, num_heads=4)
        self.bi_rnn = Bidirectional(GRU(units=400, activation="tanh", return_sequences=True), merge_mode="ave")
        if dense_size is not None:
            self.ffn = point_wise_feed_forward_network(dense_size)
        self.classifier = Dense(class_num, activation=last_activation)

    def call(self, inputs, training=None, mask=None):
        if len(inputs.get_shape()) != 2:
            raise ValueError("inputs must be (batch, maxlen)")
        x = self.embedding(inputs)
        x = self.attention(x, x, x)
        x = self.bi_rnn(x)
        x = tf.reshape(x, shape=(-1, 400 * self.maxlen))
        if self.dense_size is not None:
            x = self.ffn(x)
        return self.classifier(x)


if __name__ == "__main__":
    model = TextSelfAtt(maxlen=400, max_features=5000, embedding_dims=400, class_num=2, dense_size=[128, 64])
    model.build(input_shape=(None, 400))
    model.summary()
