// Session 30, precscan10c: class "a string switch whose arms test membership in a literal tuple of aliases".
//
// A masking helper of TensorFlow chatbot code dispatches on a string parameter with aliases per arm
// (`if kind in ("k", "key", "keys"):` fills padded keys with a large negative number before the softmax,
// `elif kind in ("q", "query", "queries"):` multiplies the weights by a query mask after it). Each call takes one arm,
// as with `kind == "key"`: the 0/1 product in the query arm is no mask of the scores when the only call taking that
// arm passes the weights after the softmax. Called with the scores before the softmax it is still reported, and so is
// an arm selected by a container the code does not write out (nothing says which arm runs).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const helper = (keyTest: string, queryTest: string): string => `import tensorflow as tf


def apply_mask(inputs, queries=None, keys=None, kind=None):
    pad_value = -2 ** 32 + 1
    if ${keyTest}:
        masks = tf.sign(tf.reduce_sum(tf.abs(keys), axis=-1))
        masks = tf.tile(tf.expand_dims(masks, 1), [1, tf.shape(queries)[1], 1])
        outputs = tf.where(tf.equal(masks, 0), tf.ones_like(inputs) * pad_value, inputs)
    elif ${queryTest}:
        masks = tf.sign(tf.reduce_sum(tf.abs(queries), axis=-1))
        masks = tf.tile(tf.expand_dims(masks, -1), [1, 1, tf.shape(keys)[1]])
        outputs = inputs * masks
    else:
        raise ValueError(kind)
    return outputs
`;
const PRODUCT = 13;

const attention = (first: string, second: string): string => `

def attend(Q, K, V):
    d_k = Q.get_shape().as_list()[-1]
    scores = tf.matmul(Q, tf.transpose(K, [0, 2, 1]))
    scores /= d_k ** 0.5
    scores = apply_mask(scores, Q, K, kind="${first}")
    weights = tf.nn.softmax(scores)
    weights = apply_mask(weights, Q, K, kind="${second}")
    return tf.matmul(weights, V)
`;

const IN = ['kind in ("k", "key", "keys")', 'kind in ("q", "query", "queries")'] as const;

describe('lint: a string switch on membership in a literal tuple of aliases (ATT006)', () => {
  it('keys filled before the softmax, the query mask multiplied into the weights after it: silent', async () => {
    assert.deepEqual(await findingLines(helper(...IN) + attention('key', 'query'), 'ATT006'), []);
    assert.deepEqual(await findingLines(helper(...IN) + attention('keys', 'q'), 'ATT006'), []);
  });
  it('the same with the arms written as lists, sets and `not in`: silent', async () => {
    const forms: [string, string][] = [
      ['kind in ["k", "key"]', 'kind in ["q", "query"]'],
      ['kind in {"k", "key"}', 'kind in {"q", "query"}'],
      ['kind not in ("q", "query")', 'kind not in ("k", "key")'],
    ];
    for (const [k, q] of forms) assert.deepEqual(await findingLines(helper(k, q) + attention('key', 'query'), 'ATT006'), [], k);
  });
  it('the query arm taken with the scores before the softmax multiplies them by a 0/1 mask: reported', async () => {
    assert.deepEqual(await findingLines(helper(...IN) + attention('query', 'key'), 'ATT006'), [PRODUCT]);
  });
  it('an equality switch and the membership switch agree', async () => {
    const eq = helper('kind == "key"', 'kind == "query"');
    assert.deepEqual(await findingLines(eq + attention('key', 'query'), 'ATT006'), []);
    assert.deepEqual(await findingLines(eq + attention('query', 'key'), 'ATT006'), [PRODUCT]);
  });
  it('aliases held in a name, not written out: nothing says which arm a call takes, reported as before', async () => {
    const named = helper('kind in KEY_KINDS', 'kind in QUERY_KINDS').replace(
      'def apply_mask',
      'KEY_KINDS = ("k", "key")\nQUERY_KINDS = ("q", "query")\n\n\ndef apply_mask',
    );
    assert.deepEqual(await findingLines(named + attention('key', 'query'), 'ATT006'), [PRODUCT + 4]);
  });
  it('across files: the helper in one module, its callers in another: silent in both', async () => {
    // The buggy twin across files (`kind="query"` before the softmax) is not reported on main either, with `==` as
    // with `in`: ATT006 does not follow a helper's product into another file's softmax. A recall gap, left as it is.
    const model = `import tensorflow as tf\nfrom masking import apply_mask\n${attention('key', 'query')}`;
    const files = { 'masking.py': helper(...IN), 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'masking.py', 'ATT006'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'model.py', 'ATT006'), []);
  });
});
