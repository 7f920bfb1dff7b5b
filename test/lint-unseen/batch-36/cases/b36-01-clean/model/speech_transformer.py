import tensorflow as tf
from keras.layers import Dense, Embedding
from keras.models import Model

from model.components.attention import TwoDimAttention
from model.components.decoder_layer import DecoderSelfAttentionLayer
from model.utils.mask import generate_mask


class SpeechTransformerSketch(Model):
    def __init__(self, vocab_size: int, n_layer: int = 6, embedding_dim: int = 512, heads: int = 8):
        super().__init__()
        self.two_dim_attention = TwoDimAttention(n=64, c=64)
        self.embedding = Embedding(input_dim=vocab_size, output_dim=embedding_dim)
        self.layers_ = [
            DecoderSelfAttentionLayer(embedding_dim, heads, d_ff=2048, dropout_rate=0.1, eps=0.1)
            for _ in range(n_layer)
        ]
        self.classifier = Dense(units=vocab_size)

    def call(self, spectrogram: tf.Tensor, targ: tf.Tensor, is_train: bool = False):
        features = self.two_dim_attention(spectrogram, spectrogram, spectrogram)
        _, targ_look_ahead_mask = generate_mask(targ)
        tensor = self.embedding(targ)
        for layer in self.layers_:
            tensor = layer(tensor, targ_look_ahead_mask, is_train)
        return self.classifier(tensor), features
