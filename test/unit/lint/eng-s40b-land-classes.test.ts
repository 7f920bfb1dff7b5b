// Session 41 (eng-s40b-land; test/lint-scan/results/2026-12-07-scan-session-41-s40b.md): eng-prec-s40b's scopes fix
// (names a module binds after a top-level try/if/loop reach its functions) handed rules evidence they did not have, and
// the precision rescan of session 40 showed four classes of correct code then reported. Each is a class met in real
// code (DeepSpeed's MoE gating, hip-attention's dense fallback, DeepSpeed's and fast-transformers' kernel tests, a NumPy
// simulation of quantised attention), fixed by reading more of what the code shows:
//  1. ATT006: a product in an `if`/`elif` arm the context cannot take is no use of the weights (`einsum(rule, a, b)`
//     dispatching on `USE_EINSUM = True` and on the rule string: the `torch.bmm` of `elif rule == "se,se->s":` never
//     runs for `einsum("se,sc->sec", gates, x)`). A top-1 MoE gate times its one-hot expert mask met no values.
//  2. ATT004: a fused kernel call in such an arm (`if backend == "sdpa":` of a helper whose callers leave
//     `backend="flash_attn"`) is not judged in that context.
//  3. ATT003: a test's reference written over several lines (`self.assertLess(\n torch.max(torch.abs(a - b)),\n 1e-4)`),
//     `assert(abs(a - b).max() < 1e-4)`, and a helper that compares itself and is called by tests only (the reference
//     run at the kernel's own scale=1.0) follow the kernel under test; the softmax path now takes the tests' helpers too.
//  4. ATT004: NumPy's generators (`rng = np.random.default_rng(seed)`, `rng.normal(size=...)`) draw as `np.random`
//     does: a factor on such a draw sets its spread, not a second 1/sqrt(d) on the logits.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, findingLines, workspaceFindingLines } from './helpers';

const fixture = (path: string): string => readFileSync(join(ROOT, 'test/unit/lint/fixtures', path), 'utf8');

/** The natural example is the rule-coverage fixture `ATT006/moe_gate_einsum_helper_arms_ok.py` (one copy). */
const MOE_GATE = fixture('ATT006/moe_gate_einsum_helper_arms_ok.py');
const HELPER_ATTENTION = `import torch
import torch.nn.functional as F

USE_EINSUM = False


def mix(rule, a, b):
    if USE_EINSUM:
        return torch.einsum(rule, a, b)
    elif rule == "bqk,bkd->bqd":
        return torch.bmm(a, b)
    else:
        return torch.einsum(rule, a, b)


def attend(q, k, v, lengths):
    scores = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    weights = F.softmax(scores, dim=-1)
    keep = (torch.arange(k.size(1))[None, :] < lengths[:, None]).float()
    weights = weights * keep[:, None, :]
    return mix("bqk,bkd->bqd", weights, v)
`;

describe('eng-s40b-land 1. ATT006: a product in an arm the context cannot take is no use of the weights', () => {
  it('natural: top-1 MoE gating through an einsum helper whose first arm always runs (USE_EINSUM = True after a try block): silent', async () => {
    assert.deepEqual(await findingLines(MOE_GATE, 'ATT006'), []);
  });
  it('the same helper with USE_EINSUM = False: the rule string decides the arm, the bmm arm is not taken: silent', async () => {
    assert.deepEqual(await findingLines(MOE_GATE.replace('USE_EINSUM = True', 'USE_EINSUM = False'), 'ATT006'), []);
  });
  it('attention weights masked after softmax, mixed with the values in the arm the call takes: reported', async () => {
    assert.deepEqual(await findingLines(HELPER_ATTENTION, 'ATT006'), [20]);
    assert.deepEqual(await findingLines(HELPER_ATTENTION.replace('USE_EINSUM = False', 'USE_EINSUM = True'), 'ATT006'), [20]);
  });
  it('fixed: the keys masked before the softmax: silent', async () => {
    const fixed = HELPER_ATTENTION.replace(
      '    weights = F.softmax(scores, dim=-1)\n    keep = (torch.arange(k.size(1))[None, :] < lengths[:, None]).float()\n    weights = weights * keep[:, None, :]\n',
      '    keep = torch.arange(k.size(1))[None, :] < lengths[:, None]\n    scores = scores.masked_fill(~keep[:, None, :], float("-inf"))\n    weights = F.softmax(scores, dim=-1)\n',
    );
    assert.notEqual(fixed, HELPER_ATTENTION);
    assert.deepEqual(await findingLines(fixed, 'ATT006'), []);
  });
});

/** The natural example is the rule-coverage fixture `ATT004/kernel_arm_callers_skip_ok.py` (one copy). */
const DENSE_FALLBACK = fixture('ATT004/kernel_arm_callers_skip_ok.py');
const KERNELS_PY = `import torch
import torch.nn.functional as F

# The original imports this under try/except ImportError (falling back to None);
# a plain import keeps the example free of a top-level compound statement.
#
from flash_attn import flash_attn_with_kvcache


def dense_attention(q, k, v, is_causal=True, backend="flash_attn"):
    if backend == "sdpa":
        context = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
        return context, None
    elif backend == "flash_attn":
        return flash_attn_with_kvcache(q, k, v, causal=is_causal, softmax_scale=1.0), None
    else:
        raise ValueError(backend)
`;

describe('eng-s40b-land 2. ATT004: a fused kernel in an arm its callers do not take is not judged there', () => {
  it('natural: q pre-scaled by the caller, the helper left at backend="flash_attn" (scale 1.0): the sdpa arm is silent', async () => {
    assert.deepEqual(await findingLines(DENSE_FALLBACK, 'ATT004'), []);
  });
  // Session 48 (eng-s48a): a factor known only by its name (`q_scale`, a parameter no call binds) is no evidence of a
  // 1/sqrt(d) scaling, so the scaled-twice finding needs the caller to show it (`q.shape[-1] ** -0.5`).
  it('a caller that takes the sdpa arm with its pre-scaled q: reported (scaled twice)', async () => {
    const sdpa = DENSE_FALLBACK.replace('dense_attention(q, k, v)', 'dense_attention(q, k, v, backend="sdpa")').replace(
      'def paged_attention(q, q_scale, k, v):\n    q = q * q_scale',
      'def paged_attention(q, k, v):\n    q_scale = q.shape[-1] ** -0.5\n    q = q * q_scale',
    );
    assert.notEqual(sdpa, DENSE_FALLBACK);
    assert.deepEqual(await findingLines(sdpa, 'ATT004'), [19]);
  });
  it('fixed: the sdpa arm told scale=1.0 as the flash arm is: silent', async () => {
    const sdpa = DENSE_FALLBACK.replace('dense_attention(q, k, v)', 'dense_attention(q, k, v, backend="sdpa")').replace(
      'is_causal=is_causal)',
      'is_causal=is_causal, scale=1.0)',
    );
    assert.deepEqual(await findingLines(sdpa, 'ATT004'), []);
  });
  it('cross-file: the helper in kernels.py, the pre-scaling caller in paged.py: silent in both', async () => {
    const files = {
      'kernels.py': KERNELS_PY,
      'paged.py':
        'from kernels import dense_attention\n\n\ndef paged_attention(q, q_scale, k, v):\n    q = q * q_scale\n    out, _ = dense_attention(q, k, v)\n    return out\n',
    };
    assert.deepEqual(await workspaceFindingLines(files, 'kernels.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files, 'paged.py', 'ATT004'), []);
  });
});

const CLUSTERED_TEST = `import unittest

import torch
import torch.nn.functional as F

from kernels import clustered_attention


def reference(Q, K, V, groups):
    QK = torch.einsum("nhle,nhse->nhls", Q, K)
    A = F.softmax(QK, dim=-1)
    V_new = torch.einsum("nhls,nhse->nhle", A, V)
    assert(abs(V_new - clustered_attention(Q, K, V, groups)).max().item() < 1e-4)
    return V_new


class TestClustered(unittest.TestCase):
    def test_full(self):
        Q = torch.randn(2, 4, 100, 32)
        K = torch.randn(2, 4, 50, 32)
        V = torch.randn(2, 4, 50, 32)
        QK = torch.einsum("nhle,nhse->nhls", Q, K)
        A = F.softmax(QK, dim=-1)
        V_new = torch.einsum("nhls,nhse->nhle", A, V)
        V_ref = reference(Q, K, V, None)
        self.assertLess(
            torch.max(torch.abs(
                V_new
                - V_ref
            )),
            1e-4
        )
`;
/** The natural example is the rule-coverage fixture `ATT003/test_helper_compares_unit_scale_ok.py` (one copy). */
const FLASH_TEST = fixture('ATT003/test_helper_compares_unit_scale_ok.py');
const CLUSTERED_KERNELS = `import torch

# The original imports this under try/except ImportError (falling back to None);
# a plain import keeps the example free of a top-level compound statement.
#
from fast_kernels import clustered_cuda


def clustered_attention(Q, K, V, groups):
    return clustered_cuda(Q, K, V, groups)
`;

describe('eng-s40b-land 3. ATT003: a test reference follows the kernel under test', () => {
  it('natural: unscaled references compared under a tolerance (multi-line assertLess, assert(abs(a - b).max() < tol)): silent', async () => {
    assert.deepEqual(await findingLines(CLUSTERED_TEST, 'ATT003'), []);
  });
  it('the same attention outside a test (no comparison): reported', async () => {
    const plain = CLUSTERED_TEST.replace('class TestClustered(unittest.TestCase):', 'class Clustered:')
      .replace('def test_full(self):', 'def run(self):')
      .replace('    assert(abs(V_new - clustered_attention(Q, K, V, groups)).max().item() < 1e-4)\n', '');
    assert.deepEqual(await findingLines(plain, 'ATT003'), [11, 22]);
  });
  it('cross-file: the kernel under test imported from the workspace: silent', async () => {
    const files = { 'kernels.py': CLUSTERED_KERNELS, 'test_clustered.py': CLUSTERED_TEST };
    assert.deepEqual(await workspaceFindingLines(files, 'test_clustered.py', 'ATT003'), []);
  });
  it('natural: a flash reference at scale=1.0 in a helper that compares and is called by tests only: silent', async () => {
    assert.deepEqual(await findingLines(FLASH_TEST, 'ATT003'), []);
  });
  it('the same helper also called outside the tests: reported', async () => {
    assert.deepEqual(await findingLines(FLASH_TEST + '\n\ndef benchmark():\n    _blocked_flash_testing_helper(64, 8, 4096)\n', 'ATT003'), [23]);
  });
  it('fixed: the reference scaled by 1/sqrt(d): silent', async () => {
    const fixed =
      FLASH_TEST.replace('softmax_scale=1.0', 'softmax_scale=head_size ** -0.5') + '\n\ndef benchmark():\n    _blocked_flash_testing_helper(64, 8, 4096)\n';
    assert.deepEqual(await findingLines(fixed, 'ATT003'), []);
  });
});

const SIM_ONE_FILE = `import numpy as np

rng = np.random.default_rng(2026)


def softmax(x, axis=-1):
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def run_attention_sim(d_model=512, d_head=64, seq_len=128, batch=16):
    X = rng.normal(size=(batch, seq_len, d_model)) / np.sqrt(d_model)
    Wq = rng.normal(size=(d_model, d_head)) / np.sqrt(d_model)
    Wk = rng.normal(size=(d_model, d_head)) / np.sqrt(d_model)
    Wv = rng.normal(size=(d_model, d_head)) / np.sqrt(d_model)
    Q = X @ Wq
    K = X @ Wk
    V = X @ Wv
    logits = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_head)
    attn = softmax(logits, axis=-1)
    return attn @ V
`;
/** The same simulation with its generator imported from `common.py`. */
const SIM_PY = SIM_ONE_FILE.replace('\n\nrng = np.random.default_rng(2026)\n', '\nfrom common import rng\n');
const COMMON_PY = `import numpy as np

rng = np.random.default_rng(2026)
`;

describe('eng-s40b-land 4. ATT004: a NumPy generator draws as np.random does', () => {
  it('natural: random data and weights drawn by rng.normal(...) / sqrt(d_model), scores / sqrt(d_head): silent', async () => {
    assert.deepEqual(await findingLines(SIM_ONE_FILE, 'ATT004'), []);
  });
  it('the queries scaled by 1/sqrt(d_head) and the scores again: reported', async () => {
    const twice = SIM_ONE_FILE.replace('    Q = X @ Wq', '    Q = (X @ Wq) / np.sqrt(d_head)');
    assert.notEqual(twice, SIM_ONE_FILE);
    assert.deepEqual(await findingLines(twice, 'ATT004'), [20]);
  });
  it('cross-file: the generator made in common.py and imported: silent', async () => {
    assert.ok(SIM_PY.includes('from common import rng') && !SIM_PY.includes('default_rng'));
    assert.deepEqual(await workspaceFindingLines({ 'common.py': COMMON_PY, 'sim.py': SIM_PY }, 'sim.py', 'ATT004'), []);
  });
  it('cross-file, the queries scaled twice: reported', async () => {
    const twice = SIM_PY.replace('    Q = X @ Wq', '    Q = (X @ Wq) / np.sqrt(d_head)');
    assert.deepEqual(await workspaceFindingLines({ 'common.py': COMMON_PY, 'sim.py': twice }, 'sim.py', 'ATT004'), [19]);
  });
});
