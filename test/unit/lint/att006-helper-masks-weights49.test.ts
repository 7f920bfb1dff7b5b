// Session 49 (eng-s49c): weights masked after the softmax by a helper of another workspace file.
//
// Weights passed to a helper of the same file that multiplies them by a mask passed with them (`restrict(w, keep)` doing
// `return w * allowed`) are masked after the softmax in the caller's context, and ATT006 reports the masking when nothing
// renormalises. The same helper moved to utils.py was silent: weights cross files as plain tensors, so the product
// there was no post-softmax mask, and the caller's weights came back as an unknown tensor. A helper of another file
// that hands back the weights passed in times one of its parameters as it is (or in another dtype), on every path and
// with nothing else, now masks the caller's weights at the call with the mask the caller passes: the caller's mask
// decides (rows, dropout, NaN guards, a mask before the softmax), as it would with the helper in the same file.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

// q, k, v: (B, T, d); lengths: (B,); keep: (B, S) True at real keys.
const CALLER = (before: string, call: string, after = ''): string => `import torch
import torch.nn.functional as F

from utils import restrict


def attend(q, k, v, lengths):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    keep = torch.arange(k.shape[1])[None, :] < lengths[:, None]
    ${before}
    w = F.softmax(s, dim=-1)
    ${call}
    ${after}
    return w @ v
`;

const HELPER = (body: string): string => `def restrict(w, allowed):
    ${body}
`;

const INLINE = `import torch
import torch.nn.functional as F


def restrict(w, allowed):
    return w * allowed


def attend(q, k, v, lengths):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    keep = torch.arange(k.shape[1])[None, :] < lengths[:, None]
    w = F.softmax(s, dim=-1)
    w = restrict(w, keep[:, None, :].float())
    return w @ v
`;

const files = (before: string, call: string, body: string, after = ''): Record<string, string> => ({
  'model.py': CALLER(before, call, after),
  'utils.py': HELPER(body),
});
const lines = (before: string, call: string, body: string, after = ''): Promise<number[]> =>
  workspaceFindingLines(files(before, call, body, after), 'model.py', 'ATT006');

const MASK = 'w = restrict(w, keep[:, None, :].float())';

describe('att006 (session 49): weights masked by a helper of another file', () => {
  it('reports the same helper in one file (the behaviour across files now matches)', async () => {
    assert.deepEqual(await findingLines(INLINE, 'ATT006'), [6]);
  });
  it('reports the call when the helper of another file multiplies the weights by the mask passed in', async () => {
    assert.deepEqual(await lines('', MASK, 'return w * allowed'), [12]);
  });
  it('names the helper and links its product in the other file', async () => {
    const ws = files('', MASK, 'return w * allowed');
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(ws) });
    const found = l.lintPython(ws['model.py'] ?? '', { path: 'model.py' }).filter((f) => f.code === 'ATT006');
    assert.equal(found.length, 1);
    assert.match(found[0]?.message ?? '', /multiplied by the mask in `restrict`, utils\.py:2/);
    assert.ok(found[0]?.related?.some((r) => r.path === 'utils.py' && r.line === 2));
  });
  it('reads the mask through a dtype conversion there and a name bound before the return', async () => {
    assert.deepEqual(await lines('', 'w = restrict(w, keep[:, None, :])', 'w = w * allowed.to(w.dtype)\n    return w'), [12]);
  });
  it('is silent when the caller masked the scores before the softmax (the fixed twin)', async () => {
    assert.deepEqual(await lines("s = s.masked_fill(~keep[:, None, :], float('-inf'))", MASK, 'return w * allowed'), []);
  });
  it('is silent when the caller renormalises after the call', async () => {
    assert.deepEqual(await lines('', MASK, 'return w * allowed', 'w = w / w.sum(-1, keepdim=True).clamp_min(1e-9)'), []);
  });
  it('is silent when the helper renormalises what it masked', async () => {
    assert.deepEqual(await lines('', MASK, 'w = w * allowed\n    return w / (w.sum(-1, keepdim=True) + 1e-9)'), []);
  });
  it('is silent when the mask passed selects whole query rows', async () => {
    assert.deepEqual(await lines('', 'w = restrict(w, keep[:, :, None].float())', 'return w * allowed'), []);
  });
  it("is silent when the helper reshapes the mask itself (its shape there is not the argument's)", async () => {
    assert.deepEqual(await lines('', 'w = restrict(w, keep)', 'return w * allowed[:, None, :]'), []);
  });
  it('is silent when the helper multiplies by a factor that is no mask', async () => {
    assert.deepEqual(await lines('', 'w = restrict(w, 0.5)', 'return w * allowed'), []);
  });
});
