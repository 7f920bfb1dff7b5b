import tensorflow as tf
from keras import layers
from keras.layers import Add, Dense, Dropout, Embedding, LayerNormalization, MultiHeadAttention

# shared by every encoder of the model
DROP = 0.4
HEAD_WIDTH = 64  # per-head query/key size of the self-attention
HEADS = 16
# note: the head width is not tied to the token width here (ViT would use width // HEADS)


class TokensWithClass(layers.Layer):
    """Project each patch to `width`, prepend a learned class token, add learned positions."""

    def __init__(self, n_patches, width, add_axis=True):
        super().__init__()
        self.n_patches, self.width, self.add_axis = n_patches, width, add_axis
        init = tf.random_normal_initializer()
        self.cls = tf.Variable(init(shape=(1, width), dtype="float32"), trainable=True)
        self.proj = Dense(width)
        self.pos = Embedding(input_dim=n_patches + 1, output_dim=width)
        self.drop = Dropout(0.1)

    def call(self, patches, *args):
        batch = tf.shape(patches)[0]
        cls = tf.tile(self.cls, multiples=[batch, 1])
        if self.add_axis:
            # electrode level: (batch, N, d) -> (batch, 1, N + 1, width)
            patches = tf.expand_dims(patches, axis=1)
            tokens = tf.concat([tf.reshape(cls, (batch, 1, 1, self.width)), self.proj(patches)], axis=2)
        else:
            # region level: (batch, R, features) -> (batch, R + 1, width)
            tokens = tf.concat([tf.reshape(cls, (batch, 1, self.width)), self.drop(self.proj(patches))], axis=1)
        return tokens + self.pos(tf.range(self.n_patches + 1))


class FeedForward(layers.Layer):
    def __init__(self, hidden, out, rate=DROP):
        super().__init__()
        self.fc1 = Dense(hidden, activation=tf.nn.gelu)
        self.fc2 = Dense(out, activation=tf.nn.gelu)
        self.drop = Dropout(rate)

    def call(self, x, *args):
        return self.drop(self.fc2(self.drop(self.fc1(x))))


class EncoderBlock(layers.Layer):
    def __init__(self, width, heads=HEADS, head_width=HEAD_WIDTH):
        super().__init__()
        self.norm1 = LayerNormalization(epsilon=1e-6)
        self.mha = MultiHeadAttention(num_heads=heads, key_dim=head_width, dropout=DROP)
        self.norm2 = LayerNormalization(epsilon=1e-6)
        self.ff = FeedForward(hidden=4 * width, out=width)

    def call(self, x, *args):
        h = self.norm1(x)
        x = Add()([self.mha(h, h), x])
        return Add()([self.ff(self.norm2(x)), x])


class Encoder(layers.Layer):
    def __init__(self, width, depth):
        super().__init__()
        self.blocks = [EncoderBlock(width) for _ in range(depth)]

    def call(self, x, *args):
        for block in self.blocks:
            x = block(x)
        return x
