// The metamorphic harness (test/lint-metamorphic; scripts/lint-metamorphic.ts): rewrites keep what the code computes
// and map every rewritten line back to the original places, and the harness pairs the findings of the original and
// the rewritten case by rule and original place.
import { strict as assert } from 'node:assert';
import { applyEdits } from '../../lint-metamorphic/edits';
import { compareFindings, CORPUS_CASES, readMetaCases, runMetamorphic, type MetaCase } from '../../lint-metamorphic/harness';
import { caseLinter } from '../../lint-metamorphic/linter';
import { applyRewrite, REWRITES } from '../../lint-metamorphic/rewrites';
import { createPyParser, type PyParser } from '../../lint-metamorphic/syntax';
import { grammar, linter } from './helpers';

const rewrite = (name: string) => {
  const r = REWRITES.find((x) => x.name === name);
  if (!r) throw new Error(name);
  return r;
};

// ATT001 on line 9: the softmax normalises over the query axis.
const SOFTMAX_DIM = `import math
import torch
import torch.nn.functional as F


def attend(q, k, v):
    d = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d)
    w = F.softmax(scores, dim=-2)
    return torch.matmul(w, v)
`;

describe('lint metamorphic harness', () => {
  let parser: PyParser;
  before(async () => {
    await linter(); // starts the tree-sitter runtime
    parser = await createPyParser(grammar().python);
  });

  it('maps inserted lines to their anchors and unchanged lines to themselves', () => {
    const text = 'a = 1\nb = f(a)\nc = 2\n';
    const at = text.indexOf('f(a)');
    const m = applyEdits('x.py', text, [
      { start: at, end: at + 4, text: 't_1' },
      { start: text.indexOf('b ='), end: text.indexOf('b ='), text: 't_1 = f(a)\n', anchor: ['x.py|2'] },
    ]);
    assert.equal(m.text, 'a = 1\nt_1 = f(a)\nb = t_1\nc = 2\n');
    assert.deepEqual(
      m.lines.slice(0, 4).map((s) => [...s]),
      [['x.py|1'], ['x.py|2'], ['x.py|2'], ['x.py|3']],
    );
  });

  it('hoist: the scale of the scores goes to a local on the line before, and the finding stays on its line', async () => {
    const out = applyRewrite(rewrite('hoist'), [{ path: 'm.py', text: SOFTMAX_DIM }], parser);
    assert.equal(out.kind, 'applied');
    if (out.kind !== 'applied') return;
    const [f] = out.files;
    assert.match(f.text, /\n {4}t_1 = math\.sqrt\(d\)\n {4}scores = torch\.matmul\(q, k\.transpose\(-2, -1\)\) \/ t_1\n/);
    assert.deepEqual([...f.lines[9]], ['m.py|9']);
    const run = await runMetamorphic([metaCase('m.py', SOFTMAX_DIM, ['m.py|9|ATT001'])], parser, caseLinter(grammar()), [rewrite('hoist')]);
    assert.deepEqual(run.perRewrite.get('hoist'), { applied: 1, unsafe: 0, kept: 1, moved: 0, lost: 0, gained: 0 });
  });

  it('extract-xfile: the scores move to _util.py, imported; its lines stand for the statement they came from', async () => {
    const out = applyRewrite(rewrite('extract-xfile'), [{ path: 'm.py', text: SOFTMAX_DIM }], parser);
    assert.equal(out.kind, 'applied');
    if (out.kind !== 'applied') return;
    const util = out.files.find((f) => f.path === '_util.py');
    assert.ok(util);
    assert.match(util.text, /^import math\nimport torch\nimport torch\.nn\.functional as F\n/);
    const helper = util.text.split('\n').findIndex((l) => l.startsWith('def _xpart('));
    assert.deepEqual([...util.lines[helper]], ['m.py|8']);
    assert.match(out.files[0].text, /from _util import _xpart\n/);
    const run = await runMetamorphic([metaCase('m.py', SOFTMAX_DIM, ['m.py|9|ATT001'])], parser, caseLinter(grammar()), [rewrite('extract-xfile')]);
    assert.equal(run.perRewrite.get('extract-xfile')?.applied, 1);
    // kept or lost, every original finding is accounted for once
    const t = run.perRewrite.get('extract-xfile')!;
    assert.equal(t.kept + t.lost, run.originalFindings);
  });

  it('on a handful of corpus cases with two rewrites: none unsafe, every original finding kept or lost once per applied case', async () => {
    const names = [
      'causal-torchelie-cache-cat-or-causal.py',
      'scale-cntkx-dk-without-sqrt.py',
      'fill-apex-amp-head-mask-neg-1e10.py',
      'softmax-pytorchnlp-flattened-dim0.py',
    ];
    const cases = readMetaCases('corpus', CORPUS_CASES).cases.filter((c) => names.includes(c.name));
    assert.equal(cases.length, names.length);
    const rws = [rewrite('rename'), rewrite('hoist')];
    const run = await runMetamorphic(cases, parser, caseLinter(grammar()), rws);
    assert.equal(run.unsafe.length, 0);
    for (const rw of rws) {
      const t = run.perRewrite.get(rw.name)!;
      let expected = 0;
      for (const c of cases) {
        if (applyRewrite(rw, c.files, parser).kind !== 'applied') continue;
        const single = await runMetamorphic([c], parser, caseLinter(grammar()), []);
        expected += single.originalFindings;
      }
      assert.ok(t.applied > 0, rw.name);
      assert.equal(t.kept + t.lost, expected, rw.name);
    }
    // every lost or gained finding names an original place of its case
    for (const f of [...run.lost, ...run.gained]) assert.match(f.at, /\.py\|\d+$/);
  });

  it('a rewrite that does not apply leaves the case out of its row', async () => {
    const run = await runMetamorphic([metaCase('m.py', 'import torch\n\nx = torch.ones(3)\n', [])], parser, caseLinter(grammar()), [
      rewrite('hoist'),
      rewrite('rename'),
    ]);
    assert.equal(run.perRewrite.get('hoist')?.applied, 0);
    assert.equal(run.perRewrite.get('rename')?.applied, 0);
  });

  it('pairs findings by rule and place; one moved a line within its statement is kept as moved', () => {
    const original = [
      { code: 'ATT001', at: 'm.py|9', message: '' },
      { code: 'ATT004', at: 'm.py|8', message: '' },
    ];
    const r = compareFindings(original, [
      { code: 'ATT001', places: new Set(['m.py|9', 'm.py|8']), message: '' },
      { code: 'ATT004', places: new Set(['m.py|7']), message: '' },
      { code: 'ATT007', places: new Set(['m.py|3']), message: '' },
    ]);
    assert.deepEqual(
      r.kept.map((k) => k.code),
      ['ATT001', 'ATT004'],
    );
    assert.deepEqual(
      r.moved.map((k) => k.code),
      ['ATT004'],
    );
    assert.deepEqual(r.lost, []);
    assert.deepEqual(
      r.gained.map((g) => g.code),
      ['ATT007'],
    );
  });

  it('rename: keyword arguments of calls in the file follow the renamed parameter; a rewritten file always parses', () => {
    const src = `import torch


def attend(q, k, mask=None):
    s = q @ k.transpose(-2, -1)
    if mask is not None:
        s = s.masked_fill(mask, -1e9)
    return s.softmax(-1)


def run(a, b, m):
    return attend(a, b, mask=m)
`;
    const out = applyRewrite(rewrite('rename'), [{ path: 'm.py', text: src }], parser);
    assert.equal(out.kind, 'applied');
    if (out.kind !== 'applied') return;
    assert.match(out.files[0].text, /def attend\(query_states, key_states, m2=None\):/);
    assert.match(out.files[0].text, /return attend\(a, b, m2=m\)/);
  });
});

function metaCase(path: string, text: string, expected: string[]): MetaCase {
  return { set: 'unit', name: path, files: [{ path, text }], expected: new Set(expected), label: expected.length > 0 ? 'buggy' : 'correct' };
}
