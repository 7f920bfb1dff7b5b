// Session 45 (eng-s45c): ATT003 and a helper handed its queries and keys whose only callers in view are in test files.
//
// Class: a module-level helper `def dot_product_attention(query, key, value, bias=None)` (t5x style: the model's
// attention module folds the 1/sqrt(d) scale into the query projection's initialiser and calls the helper) whose only
// calls in the workspace are in a test module (`layers_test.py`, `tests/test_layers.py`) feeding it made-up tensors
// (`jnp.ones(...)`, `np.random.randn(...)`) to check shapes or compare with a reference computed the same way. Those
// calls say nothing of how the model's caller scales q: the helper is judged as one with no caller in view (silent),
// as session 44 decided for helpers whose caller is cut away. Counted on the readable sets before the change: none of
// their true ATT003 findings has a caller in a test file (0 of 12 in regression and training), and the 4 folder cases
// that hold a test module are all clean. A caller in a model file that passes unscaled projections is still reported.
// The helper's `query = query.astype(jnp.float32)` (a dtype cast, as `.float()` or `.to(...)`) keeps it the parameter.
import { strict as assert } from 'node:assert';
import { workspaceFindingLines } from './helpers';

const LAYERS = `import jax
import jax.numpy as jnp


def dot_product_attention(query, key, value, bias=None, float32_logits=False):
    """query: [batch, q_len, heads, depth]; key and value: [batch, kv_len, heads, depth]."""
    if float32_logits:
        query = query.astype(jnp.float32)
        key = key.astype(jnp.float32)
    attn_weights = jnp.einsum("bqhd,bkhd->bhqk", query, key)
    if bias is not None:
        attn_weights = attn_weights + bias
    attn_weights = jax.nn.softmax(attn_weights, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", attn_weights, value)
`;

const TESTS = `import jax
import numpy as np
from absl.testing import absltest

import layers


class AttentionTest(absltest.TestCase):
    def test_dot_product_attention_shape(self):
        query = np.ones((1, 3, 2, 5))
        key = np.ones((1, 4, 2, 5))
        value = np.ones((1, 4, 2, 6))
        output = layers.dot_product_attention(query, key, value)
        self.assertEqual(output.shape, (1, 3, 2, 6))

    def test_dot_product_attention(self):
        query = np.random.randn(2, 3, 4, 5)
        key = np.random.randn(2, 6, 4, 5)
        value = np.random.randn(2, 6, 4, 5)
        out = layers.dot_product_attention(query, key, value)
        weights = jax.nn.softmax(np.einsum("bqhd,bkhd->bhqk", query, key), axis=-1)
        np.testing.assert_allclose(out, np.einsum("bhqk,bkhd->bqhd", weights, value), atol=1e-6)
`;

const MODEL = (q: string): string => `import flax.linen as nn

from layers import dot_product_attention


class SelfAttention(nn.Module):
    heads: int = 8
    head_dim: int = 64

    @nn.compact
    def __call__(self, x):
        query = nn.DenseGeneral((self.heads, self.head_dim))(x)
        key = nn.DenseGeneral((self.heads, self.head_dim))(x)
        value = nn.DenseGeneral((self.heads, self.head_dim))(x)
        return dot_product_attention(${q}, key, value)
`;

describe('ATT003 helper whose only callers are in test files (session 45)', () => {
  it('is silent when the only calls in view are in a test module, beside it or under tests/', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': LAYERS, 'layers_test.py': TESTS }, 'layers.py', 'ATT003'), []);
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': LAYERS, 'tests/test_layers.py': TESTS }, 'layers.py', 'ATT003'), []);
  });

  it('still reports a model file that passes unscaled projections, with or without the tests in view', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': LAYERS, 'model.py': MODEL('query') }, 'layers.py', 'ATT003'), [13]);
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': LAYERS, 'layers_test.py': TESTS, 'model.py': MODEL('query') }, 'layers.py', 'ATT003'), [13]);
  });

  it('is silent when the model file scales the queries it passes', async () => {
    assert.deepEqual(
      await workspaceFindingLines({ 'layers.py': LAYERS, 'layers_test.py': TESTS, 'model.py': MODEL('query * self.head_dim ** -0.5') }, 'layers.py', 'ATT003'),
      [],
    );
  });

  it('reads the same calls from a module that is no test (`demo.py`) as callers', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'layers.py': LAYERS, 'demo.py': TESTS }, 'layers.py', 'ATT003'), [13]);
  });
});
