// A tensor filled with a number, times another number, is filled with the product (class: a -inf fill written
// `tf.ones(shape) * np.inf * -1`, which Python reads as `(ones * inf) * -1`; before, the tensor kept the first factor's
// +inf, so a correct -inf fill was reported as "+inf: softmax returns NaN"). Seen on the session 28 scan
// (am1tyadav/tensorflow-mingpt), after the fill matrix taught `where` to read filled tensors.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

const program = (fill: string): string => `import numpy as np
import tensorflow as tf


class Head(tf.keras.layers.Layer):
    def __init__(self, block_size, head_size):
        super().__init__()
        self._tril = tf.cast(tf.linalg.band_part(tf.ones((block_size, block_size)), -1, 0), tf.bool)
        self._head_size = head_size

    def call(self, query, key, value):
        affinities = tf.matmul(query, tf.transpose(key, perm=[0, 2, 1])) * self._head_size**-0.5
        affinities = tf.where(self._tril, affinities, ${fill})
        weights = tf.nn.softmax(affinities)
        return tf.matmul(weights, value)
`;

describe('lint: a filled tensor times a number holds the product (ATT007)', () => {
  it('`tf.ones(shape) * np.inf * -1` is a -inf fill: silent, as `tf.ones(shape) * -np.inf` is', async () => {
    assert.deepEqual(await findingLines(program('tf.ones(self._tril.shape) * np.inf * -1'), 'ATT007'), []);
    assert.deepEqual(await findingLines(program('tf.ones(self._tril.shape) * -np.inf'), 'ATT007'), []);
  });

  it('`tf.ones(shape) * -np.inf * -1` is +inf and `tf.ones(shape) * 1e9 * -1e-18` is about zero: reported', async () => {
    assert.deepEqual(await findingLines(program('tf.ones(self._tril.shape) * -np.inf * -1'), 'ATT007'), [13]);
    assert.deepEqual(await findingLines(program('tf.ones(self._tril.shape) * 1e9 * -1e-18'), 'ATT007'), [13]);
  });
});
