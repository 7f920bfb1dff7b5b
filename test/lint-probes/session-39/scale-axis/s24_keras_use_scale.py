import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def build(vocab, d_model=256, heads=4):
    tokens = keras.Input(shape=(None,), dtype="int32")
    x = layers.Embedding(vocab, d_model)(tokens)
    # Keras' dot-product Attention with a learned scale (initialised at 1), on one head.
    q = layers.Dense(d_model)(x)
    v = layers.Dense(d_model)(x)
    ctx = layers.Attention(use_scale=True)([q, v])
    # Keras' MultiHeadAttention scales by 1/sqrt(key_dim) itself.
    y = layers.MultiHeadAttention(num_heads=heads, key_dim=d_model // heads)(ctx, ctx)
    scores = tf.matmul(q, v, transpose_b=True)  # (B, T, T), unscaled single-head scores for a probe of similarity
    w = tf.nn.softmax(scores / tf.math.sqrt(tf.cast(d_model, tf.float32)), axis=-1)
    z = tf.matmul(w, v)
    return keras.Model(tokens, layers.Add()([y, z]))
