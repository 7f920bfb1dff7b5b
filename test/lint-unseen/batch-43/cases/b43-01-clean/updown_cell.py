# case: b43-01-clean
# modelled-on: brandontrabucco/detailed_captioning https://github.com/brandontrabucco/detailed_captioning/commit/444dc267406ca054a82b51c3fdb96ae8ec85a974
# label: correct
# class: clean
# pattern: bottom-up / top-down captioning cell in TensorFlow 1.x (a folder: the cell and the tiling helper it imports from a utils module): a first LSTM sees the previous language state, the mean image feature and the word; its output is tiled over the object regions with a helper from another file, concatenated to the region features and scored by a Dense(1) layer whose activation is a softmax that transposes the (batch, regions, 1) scores to (batch, 1, regions), applies tf.nn.softmax over the last axis and transposes back; the weights multiply the region features and are summed over the region axis
# why: correct: tf.nn.softmax normalises the last axis, which after the [0, 2, 1] transpose is the region axis, so each caption step gets a distribution over the regions (Anderson et al. 2018); the transpose back restores (batch, regions, 1) for the weighted sum over axis 1; additive (MLP) attention has no dot-product scale
# looks-like: ATT001, ATT003
# source: https://github.com/brandontrabucco/detailed_captioning https://github.com/brandontrabucco/detailed_captioning/commit/444dc267406ca054a82b51c3fdb96ae8ec85a974 detailed_captioning/cells/up_down_cell.py
import collections

import tensorflow as tf

from tf_utils import repeat_along


TwoLayerState = collections.namedtuple("TwoLayerState", ("attend_lstm", "lang_lstm"))


def _region_softmax(logits):
    # logits: (batch, regions, 1); normalise over the regions
    flipped = tf.transpose(logits, [0, 2, 1])
    flipped = tf.nn.softmax(flipped)
    return tf.transpose(flipped, [0, 2, 1])


class TopDownCaptionCell(tf.compat.v1.nn.rnn_cell.RNNCell):
    def __init__(self, units, pooled_image, region_feats, initializer=None, name="top_down"):
        super().__init__(name=name)
        self.pooled_image = pooled_image      # (batch, feat)
        self.region_feats = region_feats      # (batch, regions, feat)
        self.attend_lstm = tf.compat.v1.nn.rnn_cell.LSTMCell(
            units, initializer=initializer, name=name + "/attend")
        self.lang_lstm = tf.compat.v1.nn.rnn_cell.LSTMCell(
            units, initializer=initializer, name=name + "/lang")
        self.region_scorer = tf.compat.v1.layers.Dense(
            1, kernel_initializer=initializer, activation=_region_softmax,
            name=name + "/region_scores")

    @property
    def state_size(self):
        return TwoLayerState(self.attend_lstm.state_size, self.lang_lstm.state_size)

    @property
    def output_size(self):
        return self.lang_lstm.output_size

    def __call__(self, word_embedding, state):
        prev_lang = tf.concat(state.lang_lstm, 1)
        attend_in = tf.concat([prev_lang, self.pooled_image, word_embedding], 1)
        attend_out, attend_state = self.attend_lstm(attend_in, state.attend_lstm)

        n_regions = tf.shape(self.region_feats)[1]
        query_tiled = repeat_along(attend_out, [n_regions], [1])
        scorer_in = tf.concat([self.region_feats, query_tiled], 2)
        weights = self.region_scorer(scorer_in)              # (batch, regions, 1)
        context = tf.reduce_sum(self.region_feats * weights, 1)

        lang_in = tf.concat([attend_out, context], 1)
        lang_out, lang_state = self.lang_lstm(lang_in, state.lang_lstm)
        return lang_out, TwoLayerState(attend_state, lang_state)
