import tensorflow as tf

from bahdanau import AdditiveAttention


def build_translator(hidden, en_steps, en_vocab, fr_steps, fr_vocab):
    enc_in = tf.keras.layers.Input(shape=(en_steps, en_vocab), name='enc_in')
    dec_in = tf.keras.layers.Input(shape=(fr_steps - 1, fr_vocab), name='dec_in')

    enc_out, enc_state = tf.keras.layers.GRU(hidden, return_sequences=True, return_state=True)(enc_in)
    dec_out, _ = tf.keras.layers.GRU(hidden, return_sequences=True, return_state=True)(dec_in, initial_state=enc_state)

    context, weights = AdditiveAttention(name='attention')([enc_out, dec_out])
    joined = tf.keras.layers.Concatenate(axis=-1)([dec_out, context])
    probs = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(fr_vocab, activation='softmax'))(joined)

    model = tf.keras.Model(inputs=[enc_in, dec_in], outputs=probs)
    model.compile(optimizer='adam', loss='categorical_crossentropy')
    return model, tf.keras.Model(inputs=[enc_in, dec_in], outputs=weights)
