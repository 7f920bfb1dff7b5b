# case: b54-10-clean
# modelled-on: jmakr0/DL-Image-Captioning https://github.com/jmakr0/DL-Image-Captioning/commit/ec0212b95df144705fcce49bab980649e8798db5
# label: correct
# class: clean
# pattern: a Keras image captioner with a feature-gating attention (a folder: the layer helpers, where the attention is a Dense layer with a sigmoid giving one weight per pooled CNN feature and the first step's attention is a tensor of ones; and the model that unrolls an LSTM for a fixed caption length, multiplies the pooled image vector element-wise by the current attention, concatenates it with the previous word embedding, and computes the next attention from the LSTM output)
# why: correct: the attention here is a per-feature gate (sigmoid weights in (0, 1) over the channels of one pooled vector), not a distribution over positions, so there is no softmax to normalise and nothing to mask; the element-wise product with the image features is the gating itself, and starting from ones lets the first step see the whole vector
# looks-like: ATT001, ATT006
# source: https://github.com/jmakr0/DL-Image-Captioning https://github.com/jmakr0/DL-Image-Captioning/commit/ec0212b95df144705fcce49bab980649e8798db5 src/cacao/model.py
from keras import Input
from keras.layers import Concatenate, Dropout, Lambda, Multiply, Reshape

from blocks import caption_lstm, gate_layer, ones_like_batch, word_projector


def build_captioner(image_features, feat_len, emb_dim=50, steps=15, drop=0.2, reg=1e-8):
    """image_features: pooled CNN output (batch, feat_len); returns the word-embedding sequence."""
    image_input = image_features
    gate = gate_layer(feat_len, reg)
    lstm = caption_lstm(150, dropout=drop, reg=reg)
    to_word = word_projector([100, emb_dim], reg)

    mul, join, dropout = Multiply(), Concatenate(), Dropout(drop)
    as_step = Reshape((1, emb_dim + feat_len))
    as_word = Reshape((1, emb_dim))

    word = Lambda(ones_like_batch(emb_dim))(image_input)
    weights = Lambda(ones_like_batch(feat_len))(image_input)
    state, outputs = None, []
    for _ in range(steps):
        seen = dropout(mul([image_input, weights]))  # gate each feature of the pooled vector
        h, hidden, cell = lstm(as_step(join([word, seen])), initial_state=state)
        word = to_word(h)
        weights = gate(h)
        state = [hidden, cell]
        outputs.append(as_word(word))
    return Concatenate(axis=1)(outputs)


def captioner_inputs(img_shape=(224, 224, 3), steps=15, emb_dim=50):
    return Input(shape=img_shape), Input((steps, emb_dim))
