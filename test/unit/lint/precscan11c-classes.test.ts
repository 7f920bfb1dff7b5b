// Session 34 (prec-cache34), scan precscan11c (KV-cache inference engines, speculative decoding, paged attention):
//  1. ATT007, file-level precision: a dtype tested for membership in a written collection of dtypes whose first item is
//     not float16 (`query.astype(cache.dtype) if cache.dtype in (jnp.bfloat16, jnp.float16) else query`, nano-vllm-jax's
//     packed-prefill kernel) is a question about the data, as `dtype in (jnp.float16, ...)` already was: not evidence
//     that the file, or the package whose "training loop" it was read as, runs in float16 or bfloat16.
import { strict as assert } from 'node:assert';
import { sourcePrecision } from '../../../src/lint/analysis/precision';
import { workspaceFindingLines } from './helpers';

/** A JAX attention filling masked scores with `fill` (line 7). */
const attention = (fill: string): string => `import jax
import jax.numpy as jnp


def decode_attention(q, k, valid, scale):
    scores = jnp.einsum("bhd,bshd->bhs", q, k) * scale
    scores = jnp.where(valid[:, None, :], scores, ${fill})
    return jax.nn.softmax(scores, axis=-1)
`;

/** A kernel module of the same package that runs what it is given, casting the queries by the cache's dtype. */
const kernel = (cast: string): string => `import jax.numpy as jnp


def packed_prefill(query, k_cache, v_cache, run):
    query_for_kernel = ${cast}
    return run(query_for_kernel, k_cache, v_cache)
`;

describe('precscan11c 1. ATT007: a dtype tested against a collection of dtypes is no precision evidence', () => {
  it('membership with bfloat16 first, in a tuple, list or set, also `not in`: neither float16 nor bfloat16', () => {
    for (const test of [
      'k.dtype in (jnp.bfloat16, jnp.float16)',
      'k.dtype in [torch.bfloat16, torch.float16]',
      'k.dtype not in {torch.float32, torch.float16}',
      'k.dtype in (torch.bfloat16,)',
    ]) {
      const p = sourcePrecision(`if ${test}:\n    q = q.astype(k.dtype)\n`);
      assert.deepEqual([p.fp16, p.bf16], [false, false], test);
    }
  });
  it('a cast written to float16 beside the test is still evidence', () => {
    const src = 'if k.dtype in (jnp.bfloat16, jnp.float16):\n    q = q.astype(k.dtype)\nparams = params.astype(jnp.float16)\n';
    assert.equal(sourcePrecision(src).fp16, true);
  });
  it('cross-file: a kernel beside the attention casting by a membership test: -1e10 silent; one that casts to float16: reported', async () => {
    const pkg = { 'eng/__init__.py': '', 'eng/paged.py': attention('-1e10') };
    const tested = kernel('query.astype(k_cache.dtype) if k_cache.dtype in (jnp.bfloat16, jnp.float16) else query');
    assert.deepEqual(await workspaceFindingLines({ ...pkg, 'eng/prefill.py': tested }, 'eng/paged.py', 'ATT007'), []);
    const half = kernel('query.astype(jnp.float16)');
    assert.deepEqual(await workspaceFindingLines({ ...pkg, 'eng/prefill.py': half }, 'eng/paged.py', 'ATT007'), [7]);
  });
});
