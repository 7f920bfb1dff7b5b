import tensorflow as tf
from tensorflow.keras import layers

from modules.keras_mha import PaddedSelfAttention


def build_gpt(seq_len, vocab_size, lr, width=64, heads=8, ffn_units=2048):
    tokens = layers.Input(shape=(seq_len,), name="tokens")
    pad_mask = layers.Input(shape=(seq_len,), dtype=tf.float32, name="pad_mask")

    emb = layers.Embedding(input_dim=vocab_size, output_dim=width, mask_zero=True)(tokens)
    attn = PaddedSelfAttention(num_heads=heads, key_dim=width)(emb, emb, attention_mask=pad_mask)

    h = layers.LayerNormalization(epsilon=1e-6)(layers.Add()([emb, attn]))
    ffn = tf.keras.Sequential([layers.Dense(ffn_units, activation="relu"), layers.Dense(width)])
    h = layers.LayerNormalization(epsilon=1e-6)(layers.Add()([h, ffn(h)]))

    pooled = layers.GlobalAveragePooling1D()(h)
    out = layers.Dense(vocab_size, activation="softmax")(pooled)

    model = tf.keras.Model(inputs=[tokens, pad_mask], outputs=out)
    model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=lr),
        loss="sparse_categorical_crossentropy",
        weighted_metrics=["accuracy"],
    )
    return model
