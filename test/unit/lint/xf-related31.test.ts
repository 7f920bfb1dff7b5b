// Session 31: a mask that an importing file passes to a helper is evidence in another file (issue 11: such a
// diagnostic says so and links it). The related location at the helper's parameter names the call that passes the
// mask, and that call is linked as a related location in the importing file, whatever the rule's own message says.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import type { Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

const HELPER = `import math

import torch
import torch.nn.functional as F


def attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask, float("-inf"))
    return F.softmax(scores, dim=-1) @ v
`;

const model = (build: string): string => `import torch
from .attn import attend


def run(q, k, v, ids):
    pad = ids == 0
    ${build}
    return attend(q, k, v, hide)
`;

async function lint(files: Record<string, string>, path: string, code: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path }).filter((f) => f.code === code);
}

describe('lint: a mask passed by an importing file is named and linked where it comes in (related locations)', () => {
  it('ATT007 -inf fill of a padding mask varying along the queries, built by the caller: the call is named and linked', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/attn.py': HELPER, 'pkg/model.py': model('hide = pad[:, None, :, None] | pad[:, None, None, :]') };
    const [f, ...rest] = await lint(files, 'pkg/attn.py', 'ATT007');
    assert.equal(rest.length, 0);
    assert.equal(f.line, 9);
    const param = f.related?.find((r) => r.path === undefined || r.path === 'pkg/attn.py');
    assert.match(param!.message, /comes in as the parameter `mask`, passed by `run` in pkg\/model\.py:8/);
    const call = f.related?.find((r) => r.path === 'pkg/model.py');
    assert.equal(call?.line, 8, JSON.stringify(f.related));
  });
  it('the same helper, the caller passing a key-only padding mask: no finding (rows keep their real keys)', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/attn.py': HELPER, 'pkg/model.py': model('hide = pad[:, None, None, :]') };
    assert.deepEqual(await lint(files, 'pkg/attn.py', 'ATT007'), []);
  });
  it('ATT007: the mask returned by a helper of another file: the related location names it, and it is linked there', async () => {
    const masks = 'import torch\n\n\ndef make_mask(ids):\n    pad = ids == 0\n    return pad[:, None, :, None] | pad[:, None, None, :]\n';
    const attn = HELPER.replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\nfrom .masks import make_mask\n')
      .replace('def attend(q, k, v, mask):', 'def attend(q, k, v, ids):')
      .replace('masked_fill(mask,', 'masked_fill(make_mask(ids),');
    const [f, ...rest] = await lint({ 'pkg/__init__.py': '', 'pkg/masks.py': masks, 'pkg/attn.py': attn }, 'pkg/attn.py', 'ATT007');
    assert.equal(rest.length, 0);
    assert.ok(
      f.related?.some((r) => /the mask comes from `make_mask` in pkg\/masks\.py:6/.test(r.message)),
      JSON.stringify(f.related),
    );
    assert.equal(f.related?.find((r) => r.path === 'pkg/masks.py')?.line, 6, JSON.stringify(f.related));
  });
  it('ATT003: scores formed unscaled by a helper of another file: the message names the helper and its place, linked there', async () => {
    const scores = 'import torch\n\n\ndef raw_scores(q, k):\n    return q @ k.transpose(-2, -1)\n';
    const model =
      'import torch\nimport torch.nn.functional as F\nfrom .scores import raw_scores\n\n\ndef attend(q, k, v):\n    s = raw_scores(q, k)\n    w = F.softmax(s, dim=-1)\n    return w @ v\n';
    const [f, ...rest] = await lint({ 'pkg/__init__.py': '', 'pkg/scores.py': scores, 'pkg/model.py': model }, 'pkg/model.py', 'ATT003');
    assert.equal(rest.length, 0);
    assert.equal(f?.line, 8);
    assert.match(f?.message ?? '', /`raw_scores` forms them in pkg\/scores\.py:5/);
    assert.equal(f?.related?.find((r) => r.path === 'pkg/scores.py')?.line, 5, JSON.stringify(f?.related));
  });
  it('helper and caller in one file: the finding stands, and no other file is named', async () => {
    const one = HELPER + '\n\n' + model('hide = pad[:, None, :, None] | pad[:, None, None, :]').replace('from .attn import attend\n', '');
    const found = await lint({ 'pkg/__init__.py': '', 'pkg/one.py': one }, 'pkg/one.py', 'ATT007');
    assert.equal(found.length, 1);
    for (const r of found[0].related ?? []) {
      assert.doesNotMatch(r.message, /passed by/);
      assert.ok(r.path === undefined || r.path === 'pkg/one.py', JSON.stringify(r));
    }
  });
});
