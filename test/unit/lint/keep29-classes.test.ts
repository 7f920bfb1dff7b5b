// Session 29, keep29: ATT002, class "a mask written by slice assignment whose bound counts tokens or padding".
//
// `m = zeros(B, W, dtype=bool); m[i, :n] = True` in a loop over the batch marks each example's first n positions: a
// keep mask when n counts the example's tokens (`len(p)`, a sum of a keep mask), a padding mask when n counts its
// padding (`n_pad = W - len(p)`, `n_pad = (ids[i] == pad_id).sum()`: left padding, tokens right-aligned). The bound
// is followed through one assignment; a bound minus something that is not a length gives no polarity. Ones with 0
// written over the same slice read the other way; the vectorised twin (`arange(W)[None] < lengths[:, None]`) agrees
// with the loop form.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const build = (count: string, write: string, negate: boolean, base = 'zeros'): string => `import torch


def pad_batch(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    marked = torch.${base}((n, width), dtype=torch.bool)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
        bound = ${count}
        marked[i, ${write}
    pad = ${negate ? '~marked' : 'marked'}
    return ids, pad


def attend(scores, pad):
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)


def run(q, k, prompts, pad_id):
    ids, pad = pad_batch(prompts, pad_id)
    return attend(q @ k.transpose(-2, -1), pad)
`;
const FILL = 18;

describe('lint: a slice-built mask whose bound counts the padding (ATT002)', () => {
  it('`:n_pad` with n_pad = width - len(p), 1s on zeros mark the padding: silent as is, reported negated', async () => {
    assert.deepEqual(await findingLines(build('width - len(p)', ':bound] = True', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(build('width - len(p)', ':bound] = True', true), 'ATT002'), [FILL]);
  });
  it('`bound:` with the same padding count marks the tokens: silent negated, reported as is', async () => {
    assert.deepEqual(await findingLines(build('width - len(p)', 'bound:] = True', true), 'ATT002'), []);
    assert.deepEqual(await findingLines(build('width - len(p)', 'bound:] = True', false), 'ATT002'), [FILL]);
  });
  it('a count of pad ids (`(ids[i] == pad_id).sum()`) is padding too', async () => {
    const count = 'int((ids[i] == pad_id).sum())';
    assert.deepEqual(await findingLines(build(count, ':bound] = True', false), 'ATT002'), []);
    assert.deepEqual(await findingLines(build(count, ':bound] = True', true), 'ATT002'), [FILL]);
  });
  it('a token count (`len(p)`, a sum of ids != pad_id) keeps: silent negated, reported as is', async () => {
    for (const count of ['len(p)', 'int((ids[i] != pad_id).sum())']) {
      assert.deepEqual(await findingLines(build(count, ':bound] = True', true), 'ATT002'), [], count);
      assert.deepEqual(await findingLines(build(count, ':bound] = True', false), 'ATT002'), [FILL], count);
    }
  });
  it('ones with False over the padding count keep the tokens: silent negated, reported as is', async () => {
    assert.deepEqual(await findingLines(build('width - len(p)', ':bound] = False', true, 'ones'), 'ATT002'), []);
    assert.deepEqual(await findingLines(build('width - len(p)', ':bound] = False', false, 'ones'), 'ATT002'), [FILL]);
  });
  it('a bound minus something not a length (`width - pad_len`) gives no polarity either way', async () => {
    for (const negate of [true, false]) {
      const src = build('width - pad_len', ':bound] = True', negate).replace('def pad_batch(prompts, pad_id):', 'def pad_batch(prompts, pad_id, pad_len):');
      assert.deepEqual(await findingLines(src, 'ATT002'), []);
    }
  });
  it('cross-file: the padding-count mask built in a batch module, misused in another', async () => {
    const batch = build('width - len(p)', ':bound] = True', false).split('\n\n\ndef attend')[0] + '\n';
    const use = (which: string): string => `import torch

from batch import pad_batch


def attend(q, k, prompts, pad_id):
    ids, pad = pad_batch(prompts, pad_id)
    scores = (q @ k.transpose(-2, -1)).masked_fill(${which}[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)
`;
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('pad') }, 'attn.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines({ 'batch.py': batch, 'attn.py': use('~pad') }, 'attn.py', 'ATT002'), [8]);
  });
  // The vectorised twin next to the loop form: the same bound, the same reading.
  const twin = (made: string, negate: boolean): string => `import torch


def pad_batch(prompts, pad_id):
    n = len(prompts)
    width = max(len(p) for p in prompts)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    for i, p in enumerate(prompts):
        ids[i, width - len(p):] = torch.tensor(p)
    lengths = torch.tensor([len(p) for p in prompts])
    n_pad = (ids == pad_id).sum(-1)
${made}
    pad = ${negate ? '~marked' : 'marked'}
    return ids, pad


def attend(scores, pad):
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)


def run(q, k, prompts, pad_id):
    ids, pad = pad_batch(prompts, pad_id)
    return attend(q @ k.transpose(-2, -1), pad)
`;
  const loop = (bound: string): string => `    marked = torch.zeros((n, width), dtype=torch.bool)\n    for i in range(n):\n        marked[i, :${bound}] = True`;
  const vec = (bound: string): string => `    marked = torch.arange(width)[None, :] < ${bound}[:, None]`;
  const lineOf = (src: string): number => src.split('\n').findIndex((l) => l.includes('masked_fill')) + 1;
  it('the vectorised twin agrees with the loop form: lengths keep, counts of padding mark the padding', async () => {
    const cases: [string, string, boolean][] = [
      // [loop bound, vectorised bound, the bound counts padding]
      ['lengths[i]', 'lengths', false],
      ['n_pad[i]', 'n_pad', true],
      ['width - lengths[i]', '(width - lengths)', true],
    ];
    for (const [lb, vb, padding] of cases) {
      for (const form of [loop(lb), vec(vb)]) {
        for (const negate of [false, true]) {
          const src = twin(form, negate);
          const wrong = padding === negate;
          assert.deepEqual(await findingLines(src, 'ATT002'), wrong ? [lineOf(src)] : [], `${form} negated=${negate}`);
        }
      }
    }
  });
  it('the vectorised twin of a bound that may count either (`width - k`, `pad_len`): silent, as the loop form', async () => {
    for (const [lb, vb] of [
      ['width - k[i]', '(width - k)'],
      ['pad_len[i]', 'pad_len'],
    ]) {
      for (const form of [loop(lb ?? ''), vec(vb ?? '')]) {
        for (const negate of [false, true]) {
          const src = twin(form, negate).replace('def pad_batch(prompts, pad_id):', 'def pad_batch(prompts, pad_id, k, pad_len):');
          assert.deepEqual(await findingLines(src, 'ATT002'), [], `${form} negated=${negate}`);
        }
      }
    }
  });
  it('an additive -inf written past each length on zeros: silent where added before softmax', async () => {
    const src = `import torch


def attend(scores, lengths):
    bias = torch.zeros(lengths.shape[0], scores.shape[-1])
    for i in range(lengths.shape[0]):
        bias[i, lengths[i]:] = float("-inf")
    return (scores + bias[:, None, None, :]).softmax(dim=-1)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), []);
  });
});

// A bound that is a bare parameter counts what the caller passes: a helper building one example's mask
// (`m = zeros(width); m[:count] = True`) keeps the tokens when its caller passes a length, marks the padding when it
// passes a count of padding; with no call in view (another file's call) the old reading, a length, stands.
const helper = (passed: string, negate: boolean, called = true): string => `import torch


def row_mask(count, width):
    m = torch.zeros(width, dtype=torch.bool)
    m[:count] = True
    return m


def pad_batch(prompts, width):
    rows = []
    for p in prompts:
        rows.append(row_mask(${passed}, width))
    marked = torch.stack(rows)
    return ${negate ? '~marked' : 'marked'}


def attend(scores, pad):
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return scores.softmax(dim=-1)
${called ? '\n\ndef run(q, k, prompts, width):\n    return attend(q @ k.transpose(-2, -1), pad_batch(prompts, width))\n' : ''}`;

describe('lint: a slice bound that is a bare parameter (ATT002)', () => {
  it('the caller passes a length: read as before (reported where misused, silent negated)', async () => {
    assert.deepEqual(await findingLines(helper('len(p)', false), 'ATT002'), [19]);
    assert.deepEqual(await findingLines(helper('len(p)', true), 'ATT002'), []);
  });
  it('cross-file: the helper in a module of its own, called with a length or a count of padding', async () => {
    const [masks, rest] = helper('PASSED', false).split('\n\n\ndef pad_batch');
    const attn = (passed: string): string => `import torch\n\nfrom masks import row_mask\n\n\ndef pad_batch${rest}`.replace('PASSED', passed);
    const lines = async (passed: string): Promise<number[]> =>
      workspaceFindingLines({ 'masks.py': `${masks}\n`, 'attn.py': attn(passed) }, 'attn.py', 'ATT002');
    const fill =
      attn('x')
        .split('\n')
        .findIndex((l) => l.includes('masked_fill')) + 1;
    // The argument the importing file passes is read there as a same-file call's is (leftovers30): a length keeps the
    // old reading, a count of padding or an unknown value gives no polarity.
    assert.deepEqual(await lines('len(p)'), [fill]);
    assert.deepEqual(await lines('width - len(p)'), []);
    assert.deepEqual(await lines('p.count(0)'), []);
    assert.deepEqual(await lines('lengths[i]'), [fill]);
  });
  it('cross-file, negated: a length passed keeps the tokens (silent), a count of padding gives no polarity (silent)', async () => {
    const [masks, rest] = helper('PASSED', true).split('\n\n\ndef pad_batch');
    const attn = (passed: string): string => `import torch\n\nfrom masks import row_mask\n\n\ndef pad_batch${rest}`.replace('PASSED', passed);
    for (const passed of ['len(p)', 'width - len(p)'])
      assert.deepEqual(await workspaceFindingLines({ 'masks.py': `${masks}\n`, 'attn.py': attn(passed) }, 'attn.py', 'ATT002'), [], passed);
  });
  it('the caller in the same file passes a count of padding or an unknown value: silent either way', async () => {
    for (const passed of ['width - len(p)', 'p.count(0)']) {
      for (const negate of [false, true]) assert.deepEqual(await findingLines(helper(passed, negate), 'ATT002'), [], passed);
    }
  });
});
