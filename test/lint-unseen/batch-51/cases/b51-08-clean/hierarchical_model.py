# case: b51-08-clean
# modelled-on: NickGreen99/Emotion-Recognition-EEG-Transformer https://github.com/NickGreen99/Emotion-Recognition-EEG-Transformer/commit/b550221cfdf6a1f45c035b41ba89697944c6d409
# label: correct
# class: clean
# pattern: a two-level (electrode, then brain-region) Keras transformer for EEG emotion recognition (a folder: the layers file, whose encoder block calls keras.layers.MultiHeadAttention(num_heads=16, key_dim=64) on 8- or 16-wide tokens with a learned class token prepended and no mask; and the model file, which runs one small encoder per electrode group, reshapes and projects their outputs, concatenates them and runs a region-level encoder whose class token feeds the classifier; on the electrode level the tokens are 4-D, (batch, 1, N + 1, width), so the layer attends over its two middle axes, the first of size 1)
# why: correct: Keras MultiHeadAttention projects the tokens to heads x key_dim itself and scales the scores by 1/sqrt(key_dim), the per-head width it actually uses, so a head width larger than token_width / heads changes the model's capacity, not the correctness of the scale (the layers file's comment records the choice); every token is a real electrode or region plus the class token, so no padding or causal mask is needed, and the softmax is the layer's own over the keys
# looks-like: ATT002, ATT003, ATT004
# source: https://github.com/NickGreen99/Emotion-Recognition-EEG-Transformer https://github.com/NickGreen99/Emotion-Recognition-EEG-Transformer/commit/b550221cfdf6a1f45c035b41ba89697944c6d409 deap_transformer_classes.py
import tensorflow as tf
from tensorflow import keras
from keras import Model, activations
from keras.layers import Concatenate, Dense, Reshape

from region_layers import Encoder, TokensWithClass

BAND_FEATURES = 5  # one value per frequency band and electrode
ELECTRODE_WIDTH = 8
REGION_WIDTH = 16
ELECTRODE_DEPTH = 2
REGION_DEPTH = 2
# electrodes per region: pre-frontal, frontal, left temporal, central, right temporal, left parietal, parietal,
# right parietal, occipital
REGION_SIZES = (4, 5, 3, 5, 3, 3, 3, 3, 3)


def electrode_branch(n_electrodes):
    inp = keras.Input(shape=(n_electrodes, BAND_FEATURES))
    out = Encoder(ELECTRODE_WIDTH, ELECTRODE_DEPTH)(TokensWithClass(n_electrodes, ELECTRODE_WIDTH)(inp))
    if n_electrodes != 3:
        # bring (1, N + 1, width) down to 4 rows, like the three-electrode regions
        out = Reshape((1, ELECTRODE_WIDTH, n_electrodes + 1))(out)
        out = Dense(4)(out)
        out = Reshape((1, 4, ELECTRODE_WIDTH))(out)
    return inp, out


def hierarchical_transformer(n_classes=2):
    inputs, outputs = zip(*(electrode_branch(n) for n in REGION_SIZES))
    regions = Concatenate(axis=1)(list(outputs))  # (batch, 9, 4, width)
    n_regions = regions.shape[1]
    regions = Reshape((n_regions, 4 * ELECTRODE_WIDTH))(regions)

    tokens = TokensWithClass(n_regions, REGION_WIDTH, add_axis=False)(regions)
    h = Encoder(REGION_WIDTH, REGION_DEPTH)(tokens)
    h = h[:, 0, :]  # only the class token feeds the classifier
    if n_classes == 2:
        head = Dense(1, activation=activations.sigmoid)(h)
    else:
        head = Dense(n_classes, activation=activations.softmax)(h)
    return Model(inputs=list(inputs), outputs=head)


def compile_model(n_classes=2, lr=1e-3):
    model = hierarchical_transformer(n_classes)
    loss = "binary_crossentropy" if n_classes == 2 else "categorical_crossentropy"
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=lr), loss=loss, metrics=["accuracy"])
    return model
