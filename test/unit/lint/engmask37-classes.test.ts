// Session 37, eng-mask-s37: ATT002 classes found by precision probes (small correct programs of everyday mask code
// written for this session). Each class: the natural bug, its fixed form, the evidence in another file, and the
// misleading correct forms the rule is now silent on.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

describe('eng-mask-s37: a triangle over a pair matrix whose softmax normalises every pair at once is no causal mask', () => {
  // A span extractor scores every (start i, end j) pair and chooses one span: the triangle says which pairs exist
  // (j >= i), and the softmax over the flattened (T * T) pairs is one distribution, not each query's over its keys.
  const span = (keep: string, norm: string) => `import torch


def span_probs(start, end):
    # start, end: (B, T, D) -> probabilities of the spans (i, j), (B, T * T)
    B, T, _ = start.shape
    logits = torch.einsum("bid,bjd->bij", start, end)  # (B, T, T)
    ${keep}
    logits = logits.masked_fill(~valid, -1e4)
    return ${norm}
`;

  it('misleading correct form: ~triu(ones) filled, softmax over logits.view(B, -1): silent', async () => {
    const src = span('valid = torch.ones(T, T, dtype=torch.bool).triu()  # j >= i', 'torch.softmax(logits.view(B, -1), dim=-1)');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('the same with flatten(1), or reshape(B, T * T): silent', async () => {
    const keep = 'valid = torch.ones(T, T, dtype=torch.bool).triu()  # j >= i';
    assert.deepEqual(await findingLines(span(keep, 'torch.softmax(logits.flatten(1), dim=-1)'), 'ATT002'), []);
    assert.deepEqual(await findingLines(span(keep, 'logits.reshape(B, T * T).softmax(-1)'), 'ATT002'), []);
  });

  it('the natural bug: the same triangle on causal attention scores, softmaxed per query over its keys: reported', async () => {
    const src = `import torch


def attend(q, k, v):
    # q, k, v: (B, H, T, Dh)
    T = q.size(-2)
    tri = torch.triu(torch.ones(T, T))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, T)
    s = s.masked_fill(tri == 0, float("-inf"))
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [9]);
    // fixed: the lower triangle kept
    assert.deepEqual(await findingLines(src.replace('torch.triu(', 'torch.tril('), 'ATT002'), []);
  });

  it('scores viewed with their batch and heads merged (view(B * H, T, -1)) are still softmaxed per query: reported', async () => {
    const src = `import torch


def attend(q, k, v, B, H):
    # q, k, v: (B, H, T, Dh)
    T = q.size(-2)
    tri = torch.triu(torch.ones(T, T))
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5  # (B, H, T, T)
    s = s.masked_fill(tri == 0, float("-inf"))
    s = s.view(B * H, T, -1)  # (B * H, T, T)
    return torch.softmax(s, dim=-1).view(B, H, T, T) @ v
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [9]);
  });

  it('a padding mask on the same pair matrix keeps its polarity check (only the triangle loses its causal role)', async () => {
    const src = `import torch


def span_probs(start, end, ids, pad_id):
    B, T, _ = start.shape
    logits = torch.einsum("bid,bjd->bij", start, end)  # (B, T, T)
    pad = (ids == pad_id)[:, None, :]  # (B, 1, T): True at padding
    logits = logits.masked_fill(~pad, -1e4)
    return torch.softmax(logits.view(B, -1), dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [8]);
  });

  it('cross-file: the triangle built in another file; the softmax here decides (flattened: silent, per query: reported)', async () => {
    const masks = `import torch


def upper(T):
    return torch.ones(T, T, dtype=torch.bool).triu()
`;
    const use = (norm: string) => `import torch
from masks import upper


def probs(a, b):
    # a, b: (B, T, D)
    B, T, _ = a.shape
    logits = a @ b.transpose(1, 2)  # (B, T, T)
    logits = logits.masked_fill(~upper(T), float("-inf"))
    return ${norm}
`;
    const flat = { 'masks.py': masks, 'model.py': use('torch.softmax(logits.view(B, -1), dim=-1)') };
    assert.deepEqual(await workspaceFindingLines(flat, 'model.py', 'ATT002'), []);
    const rows = { 'masks.py': masks, 'model.py': use('torch.softmax(logits, dim=-1) @ b') };
    assert.deepEqual(await workspaceFindingLines(rows, 'model.py', 'ATT002'), [9]);
  });
});

describe('eng-mask-s37: a triangle over scores laid out (keys, queries) is read over those axes', () => {
  // Scores formed with the keys first, (B, S, T), and normalised over the keys (dim=1): a query i may see key j <= i,
  // which in this layout is the UPPER triangle (row j, column i). The same triangle over (B, T, S) scores is the future.
  const keysFirst = (mask: string, fill: string) => `import torch


def attend(q, k, v):
    # q, k, v: (B, T, D)
    T = q.size(1)
    s = torch.einsum("bkd,bqd->bkq", k, q) / q.size(-1) ** 0.5  # (B, S, T): keys first
    ${mask}
    s = ${fill}
    w = torch.softmax(s, dim=1)  # over the keys
    return torch.einsum("bkq,bkd->bqd", w, v)
`;

  it('misleading correct form: triu(ones) kept (key j <= query i) over keys-first scores: silent', async () => {
    const src = keysFirst('keep = torch.triu(torch.ones(T, T, dtype=torch.bool))', 's.masked_fill(~keep, float("-inf"))');
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });

  it('the same as a strict-lower ignore mask, and through torch.where: silent', async () => {
    assert.deepEqual(await findingLines(keysFirst('future = torch.tril(torch.ones(T, T), diagonal=-1).bool()', 's.masked_fill(future, -1e9)'), 'ATT002'), []);
    assert.deepEqual(
      await findingLines(
        keysFirst('keep = torch.triu(torch.ones(T, T, dtype=torch.bool))', 'torch.where(keep, s, torch.full_like(s, float("-inf")))'),
        'ATT002',
      ),
      [],
    );
  });

  it('the natural bug in this layout: tril(ones) kept over keys-first scores (each query sees its future): reported', async () => {
    const src = keysFirst('keep = torch.tril(torch.ones(T, T, dtype=torch.bool))', 's.masked_fill(~keep, float("-inf"))');
    const findings = await findingLines(src, 'ATT002');
    assert.deepEqual(findings, [9]);
  });

  it('scores formed (B, T, S) and transposed to keys first before the mask read the same way', async () => {
    const src = (tri: string) => `import torch


def attend(q, k, v):
    T = q.size(1)
    s = (q @ k.transpose(1, 2)).transpose(1, 2) / q.size(-1) ** 0.5  # (B, S, T)
    keep = torch.${tri}(torch.ones(T, T, dtype=torch.bool))
    s = s.masked_fill(~keep, float("-inf"))
    w = torch.softmax(s, dim=1)
    return torch.bmm(w.transpose(1, 2), v)
`;
    assert.deepEqual(await findingLines(src('triu'), 'ATT002'), []);
    assert.deepEqual(await findingLines(src('tril'), 'ATT002'), [8]);
  });

  it('queries-first scores keep the usual reading (tril kept: silent; triu kept: reported)', async () => {
    const src = (tri: string) => `import torch


def attend(q, k, v):
    T = q.size(1)
    s = torch.einsum("bqd,bkd->bqk", q, k) / q.size(-1) ** 0.5  # (B, T, S)
    keep = torch.${tri}(torch.ones(T, T, dtype=torch.bool))
    s = s.masked_fill(~keep, float("-inf"))
    return torch.einsum("bqk,bkd->bqd", torch.softmax(s, dim=-1), v)
`;
    assert.deepEqual(await findingLines(src('tril'), 'ATT002'), []);
    assert.deepEqual(await findingLines(src('triu'), 'ATT002'), [8]);
  });

  it('an additive triangle and a blend with a 0/1 triangle over keys-first scores read the same way', async () => {
    const add = (tri: string) => keysFirst('pass', `s + torch.${tri} * -1e9`);
    // keys after the query: below the diagonal in this layout
    assert.deepEqual(await findingLines(add('tril(torch.ones(T, T), diagonal=-1)'), 'ATT002'), []);
    assert.deepEqual(await findingLines(add('triu(torch.ones(T, T), diagonal=1)'), 'ATT002'), [9]);
    const blend = (tri: string) => keysFirst(`keep = torch.${tri}(torch.ones(T, T))`, 's * keep - 1e9 * (1 - keep)');
    assert.deepEqual(await findingLines(blend('triu'), 'ATT002'), []);
    assert.deepEqual(await findingLines(blend('tril'), 'ATT002'), [9]);
  });

  it('cross-file: the triangle from a helper of another file, read over the keys-first scores here', async () => {
    const masks = (tri: string) => `import torch


def allowed(T):
    return torch.${tri}(torch.ones(T, T, dtype=torch.bool))
`;
    const model = `import torch
from masks import allowed


def attend(q, k, v):
    T = q.size(1)
    s = torch.bmm(k, q.transpose(1, 2)) / q.size(-1) ** 0.5  # (B, S, T)
    s = s.masked_fill(~allowed(T), float("-inf"))
    w = torch.softmax(s, dim=1)
    return torch.bmm(w.transpose(1, 2), v)
`;
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks('triu'), 'model.py': model }, 'model.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines({ 'masks.py': masks('tril'), 'model.py': model }, 'model.py', 'ATT002'), [8]);
  });
});
