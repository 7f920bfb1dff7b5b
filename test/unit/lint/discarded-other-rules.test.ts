// A fill whose result is discarded (an out-of-place masked_fill, torch.where or `+ mask` written as a statement of its
// own, analysis/discarded.ts) has no effect, so it has neither a polarity (ATT002), a position relative to the
// softmax (ATT006) nor a value (ATT007's range checks) to judge: every rule that reads fill, mask and post-softmax
// mask sites skips it (`discardedSite`), and ATT007 keeps its discarded finding. The assigned (correct-statement)
// form of each is still judged as before, and a cross-file pair: the mask built by a helper of another file, the
// discarded fill in the caller.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const DISCARDED = /returns the masked scores and this statement discards them/;

async function lint(source: string): Promise<Finding[]> {
  return (await linter()).lintPython(source, { select: ['ATT002', 'ATT006', 'ATT007', 'ATT008'] });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.line} ${f.code}${DISCARDED.test(f.message) ? ' discarded' : ''}`);

describe('discarded fills are judged by no other rule', () => {
  // A keep mask filled where True: inverted, if the fill had any effect.
  const polarity = (stmt: string) => `import math
import torch


def attention(q, k, v, ids, pad_id):
    keep = (ids != pad_id)[:, None, None, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    weights = torch.softmax(scores, dim=-1)
    return weights @ v
`;

  it('ATT002: a discarded masked_fill of a keep mask has no polarity; ATT007 reports it discarded', async () => {
    assert.deepEqual(codes(await lint(polarity('scores.masked_fill(keep, float("-inf"))'))), ['8 ATT007 discarded']);
  });

  it('ATT002: a discarded torch.where has no polarity either', async () => {
    assert.deepEqual(codes(await lint(polarity('torch.where(keep, float("-inf"), scores)'))), ['8 ATT007 discarded']);
  });

  it('ATT002: the assigned fill is still inverted', async () => {
    assert.deepEqual(codes(await lint(polarity('scores = scores.masked_fill(keep, float("-inf"))'))), ['8 ATT002']);
  });

  // Scores masked after their softmax was taken: late, if the fill had any effect.
  const late = (stmt: string) => `import math
import torch


def attention(q, k, v, ids, pad_id):
    pad = (ids == pad_id)[:, None, None, :]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = torch.softmax(scores, dim=-1)
    ${stmt}
    return weights @ v
`;

  it('ATT006: a discarded fill of the scores after their softmax is not "masked late"', async () => {
    assert.deepEqual(codes(await lint(late('scores.masked_fill(pad, float("-inf"))'))), []);
  });

  it('ATT006: the assigned late fill is still reported', async () => {
    assert.deepEqual(codes(await lint(late('scores = scores.masked_fill(pad, float("-inf"))'))), ['9 ATT006']);
  });

  it('ATT006: a discarded fill of the weights (after softmax) is no post-softmax mask; assigned, it is', async () => {
    assert.deepEqual(codes(await lint(late('weights.masked_fill(pad, 0.0)'))), []);
    assert.deepEqual(codes(await lint(late('torch.where(pad, 0.0, weights)'))), []);
    assert.deepEqual(codes(await lint(late('weights = weights.masked_fill(pad, 0.0)'))), ['9 ATT006']);
  });

  describe('cross-file: the mask built by a helper of another file, the discarded fill in the caller', () => {
    const helper = `def keep_mask(ids, pad_id):
    # True at the real tokens
    return (ids != pad_id)[:, None, None, :]
`;
    const caller = (stmt: string) => `import math
import torch
from masks import keep_mask


def attend(q, k, v, ids, pad_id):
    m = keep_mask(ids, pad_id)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    return torch.softmax(s, dim=-1) @ v
`;
    async function lintCaller(stmt: string): Promise<Finding[]> {
      const files = { 'masks.py': helper, 'model.py': caller(stmt) };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      return l.lintPython(files['model.py'], { path: 'model.py', select: ['ATT002', 'ATT006', 'ATT007', 'ATT008'] });
    }

    it('discarded: only the discarded finding', async () => {
      assert.deepEqual(codes(await lintCaller('s.masked_fill(m, float("-inf"))')), ['9 ATT007 discarded']);
    });

    it('assigned: the inverted polarity, from the other file', async () => {
      assert.deepEqual(codes(await lintCaller('s = s.masked_fill(m, float("-inf"))')), ['9 ATT002']);
    });
  });
});
