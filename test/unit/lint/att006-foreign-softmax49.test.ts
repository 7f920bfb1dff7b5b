// Session 49 (eng-s49c): scores multiplied by a 0/1 mask and softmaxed by a helper of another file (ATT006).
//
// `s = s * keep` before a softmax masks nothing (exp(0) = 1), which ATT006 reports when the file's own softmax (or a
// helper of the same file) normalises the product. With the softmax in a helper of another workspace file
// (`w = normalise(s)` with `return torch.softmax(scores, dim=-1)` in utils.py) it was silent in workspace mode: the
// softmax was the other file's, and that file, evaluated as its importers call it, gets the scores without this file's
// 0/1 product (a product with a mask crosses files as an unknown step). Scores passed to a helper whose every softmax of
// the parameter receiving them has no mask of its own on the way now carry this file's masks to that softmax: the 0/1
// product is reported here, the helper's softmax named and linked.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

const MODEL = (mask: string): string => `import torch
from utils import normalise


def attend(q, k, v, lengths):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    keep = (torch.arange(k.shape[1])[None, :] < lengths[:, None]).float()
    ${mask}
    w = normalise(s)
    return w @ v
`;

const UTILS = (body: string): string => `import torch


def normalise(scores, mask=None):
    ${body}
`;

const SOFTMAX = 'return torch.softmax(scores, dim=-1)';
const files = (mask: string, body = SOFTMAX): Record<string, string> => ({ 'model.py': MODEL(mask), 'utils.py': UTILS(body) });
const lines = (mask: string, body = SOFTMAX): Promise<number[]> => workspaceFindingLines(files(mask, body), 'model.py', 'ATT006');

describe('att006 (session 49): a 0/1 product before the softmax of a helper of another file', () => {
  it('reports the same code in one file', async () => {
    const one = `import torch\n\n\ndef normalise(scores, mask=None):\n    ${SOFTMAX}\n\n\n${MODEL('s = s * keep[:, None, :]').split('\n').slice(2).join('\n')}`;
    assert.deepEqual(await findingLines(one, 'ATT006'), [13]);
  });
  it('reports the product when the helper of another file softmaxes the scores', async () => {
    assert.deepEqual(await lines('s = s * keep[:, None, :]'), [8]);
  });
  it('names the helper and links its softmax', async () => {
    const ws = files('s = s * keep[:, None, :]');
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(ws) });
    const found = l.lintPython(ws['model.py'] ?? '', { path: 'model.py' }).filter((f) => f.code === 'ATT006');
    assert.equal(found.length, 1);
    assert.ok(found[0]?.related?.some((r) => r.path === 'utils.py' && r.line === 5));
    assert.ok(found[0]?.related?.some((r) => /`normalise` \(utils\.py:5\)/.test(r.message)));
  });
  it('is silent when the scores are filled before the call (the fixed twin)', async () => {
    assert.deepEqual(await lines("s = s.masked_fill(keep[:, None, :] == 0, float('-inf'))"), []);
  });
  it('is silent when the scores are multiplied and filled (a blend, one where)', async () => {
    assert.deepEqual(await lines('s = s * keep[:, None, :] + (1.0 - keep[:, None, :]) * -1e9'), []);
  });
  it('is silent when the helper masks the scores itself before its softmax', async () => {
    const body = "scores = scores.masked_fill(scores == 0, float('-inf'))\n    return torch.softmax(scores, dim=-1)";
    assert.deepEqual(await lines('s = s * keep[:, None, :]', body), []);
  });
  it('is silent when the helper does not softmax what it is given', async () => {
    assert.deepEqual(await lines('s = s * keep[:, None, :]', 'return torch.sigmoid(scores)'), []);
  });
});
