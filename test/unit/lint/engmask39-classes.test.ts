// Session 39, eng-mask-s39: ATT002 classes from the regression batches' false finding (b32-03) and the session's
// precision probes (test/lint-probes/session-39/mask). Each class: the natural bug, its fixed form, the evidence in
// another file, and the misleading correct forms the rule is now silent on.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, workspaceFindingLines } from './helpers';

describe('eng-mask-s39: an additive triangle made additive in one expression is judged where it meets the scores', () => {
  // `bias = tri * -inf` at module level (or in a helper), added to the scores in a function: which side of the diagonal
  // is each query's past depends on the axes of the scores it is added to, which the builder cannot see.
  const numpyHead = (tri: string, scores: string, softmaxAxis: string, out: string) => `import numpy as np

T = 6
D = 8
bias = np.nan_to_num(-np.inf * ${tri}, nan=0.0)


def head(x, wq, wk, wv):
    q, k, v = x @ wq, x @ wk, x @ wv  # (T, D) each
    s = ${scores}
    s = s - s.max(axis=${softmaxAxis}, keepdims=True)
    w = np.exp(s) / np.exp(s).sum(axis=${softmaxAxis}, keepdims=True)
    return ${out}
`;

  it('the natural bug: tril(ones, k=-1) (the past) made additive and added to q @ k.T: reported where it is added', async () => {
    const src = numpyHead('np.tril(np.ones((T, T)), k=-1)', 'q @ k.T / np.sqrt(D) + bias  # (T_q, T_k)', '-1', 'w @ v');
    assert.deepEqual(await findingLines(src, 'ATT002'), [10]);
  });

  it('its fixed form: triu(ones, k=1) (the future): silent', async () => {
    const src = numpyHead('np.triu(np.ones((T, T)), k=1)', 'q @ k.T / np.sqrt(D) + bias  # (T_q, T_k)', '-1', 'w @ v');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('misleading correct form: the same tril added to k @ q.T, scores laid out (keys, queries), softmax over axis 0: silent', async () => {
    const src = numpyHead('np.tril(np.ones((T, T)), k=-1)', 'k @ q.T / np.sqrt(D) + bias  # (T_k, T_q)', '0', 'w.T @ v');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
    // and triu there is each query's past: reported
    const bug = numpyHead('np.triu(np.ones((T, T)), k=1)', 'k @ q.T / np.sqrt(D) + bias  # (T_k, T_q)', '0', 'w.T @ v');
    assert.deepEqual(await findingLines(bug, 'ATT002'), [10]);
  });

  it('misleading correct form: the stored tril transposed where it is added (bias.T, the future): silent', async () => {
    const src = numpyHead('np.tril(np.ones((T, T)), k=-1)', 'q @ k.T / np.sqrt(D) + bias.T', '-1', 'w @ v');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
    // a stored triu transposed there is the past: reported
    const bug = numpyHead('np.triu(np.ones((T, T)), k=1)', 'q @ k.T / np.sqrt(D) + bias.T', '-1', 'w @ v');
    assert.deepEqual(await findingLines(bug, 'ATT002'), [10]);
  });

  it('misleading correct form: torch einsum with the keys first, tril(diagonal=-1) * -1e9, softmax over dim=1: silent', async () => {
    const src = (tri: string) => `import torch


def attend(q, k, v):
    # q, k, v: (B, T, D); scores laid out (B, keys, queries)
    T = q.size(1)
    hide = ${tri} * -1e9
    s = torch.einsum("bkd,bqd->bkq", k, q) / q.size(-1) ** 0.5 + hide
    w = s.softmax(dim=1)  # over the keys
    return torch.einsum("bkq,bkd->bqd", w, v)
`;
    assert.deepEqual(await findingLines(src('torch.tril(torch.ones(T, T), diagonal=-1)'), 'ATT002'), []);
    assert.deepEqual(await findingLines(src('torch.triu(torch.ones(T, T), diagonal=1)'), 'ATT002'), [8]);
  });

  it('written in the addition itself (s + tril * -1e9) it is judged as before, at the product', async () => {
    const src = `import torch


def attend(q, k, v):
    T = q.size(-2)
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + torch.tril(torch.ones(T, T), -1) * -1e9
    return s.softmax(-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [6]);
  });

  it('the finding at the addition offers no fix (the operand there is additive; the triangle is elsewhere)', async () => {
    const src = numpyHead('np.tril(np.ones((T, T)), k=-1)', 'q @ k.T / np.sqrt(D) + bias  # (T_q, T_k)', '-1', 'w @ v');
    const l = await createLinter(grammar());
    const f = l.lintPython(src).filter((x) => x.code === 'ATT002');
    assert.equal(f.length, 1);
    assert.equal(f[0].fix, undefined);
    assert.ok(
      f[0].related?.some((r) => r.line === 5),
      'the builder is a related location',
    );
  });

  it('a triangle that reaches the addition through a parameter is reported at its builder, read with the scores there', async () => {
    const src = (tri: string, scores: string, axis: string) => `import torch


def causal_bias(T):
    return ${tri} * -1e9


def attend(q, k, v, bias):
    # q, k, v: (B, T, D)
    s = ${scores} / q.size(-1) ** 0.5 + bias
    return torch.einsum("bij,bjd->bid" if ${axis} == -1 else "bji,bjd->bid", s.softmax(dim=${axis}), v)


def decode(q, k, v):
    return attend(q, k, v, causal_bias(q.size(1)))
`;
    const qFirst = 'torch.einsum("bqd,bkd->bqk", q, k)';
    const kFirst = 'torch.einsum("bkd,bqd->bkq", k, q)';
    // queries first: tril(-1) (the past) hidden is the bug, reported at the builder; triu(1) is right
    assert.deepEqual(await findingLines(src('torch.tril(torch.ones(T, T), diagonal=-1)', qFirst, '-1'), 'ATT002'), [5]);
    assert.deepEqual(await findingLines(src('torch.triu(torch.ones(T, T), diagonal=1)', qFirst, '-1'), 'ATT002'), []);
    // keys first, normalised over them (dim=1): the other way round
    assert.deepEqual(await findingLines(src('torch.tril(torch.ones(T, T), diagonal=-1)', kFirst, '1'), 'ATT002'), []);
    assert.deepEqual(await findingLines(src('torch.triu(torch.ones(T, T), diagonal=1)', kFirst, '1'), 'ATT002'), [5]);
  });

  it('cross-file: the additive triangle returned by a helper of another file, added here', async () => {
    const masks = (tri: string) => `import numpy as np


def causal_bias(T):
    return ${tri} * -1e9
`;
    const model = `import numpy as np
from masks import causal_bias


def head(x, wq, wk, wv):
    q, k, v = x @ wq, x @ wk, x @ wv
    s = q @ k.T / np.sqrt(q.shape[1]) + causal_bias(x.shape[0])
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v
`;
    const fixed = { 'masks.py': masks('np.triu(np.ones((T, T)), k=1)'), 'model.py': model };
    assert.deepEqual(await workspaceFindingLines(fixed, 'model.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(fixed, 'masks.py', 'ATT002'), []);
    const buggy = { 'masks.py': masks('np.tril(np.ones((T, T)), k=-1)'), 'model.py': model };
    const both = [...(await workspaceFindingLines(buggy, 'model.py', 'ATT002')), ...(await workspaceFindingLines(buggy, 'masks.py', 'ATT002'))];
    assert.equal(both.length, 1, `one finding in the workspace, got ${both.join(',')}`);
  });
});
