// Methods of torch.nn.Module that return the module itself (`model = Encoder(vocab=1000).to(device).eval()`): the
// instance of a workspace class survives them, so what a trainer passes to it is read in the class's file (ATT002
// across files). The same method names on a tensor, a method the class defines itself, and `zero_grad()` (None)
// keep their meaning.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace as workspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: workspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

const model = (extra = '') => `import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=64, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, ids, pad_mask):
        # ids: (B, S); pad_mask: (B, S)
        x = self.embed(ids)
        y, _ = self.mha(x, x, x, key_padding_mask=pad_mask)
        return y
${extra}`;

/** A trainer building the encoder with `build` and passing it a mask True at tokens (`ne`) or at padding (`eq`). */
const train = (build: string, op: string) => `import torch

from model import Encoder


def run(batches, device):
    encoder = ${build}
    for seqs in batches:
        ids = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
        mask = ids.${op}(0)
        encoder(ids, mask)
`;

async function pair(build: string, modelText = model()): Promise<[string[], string[]]> {
  return [
    codes(await lint({ 'model.py': modelText, 'train.py': train(build, 'ne') }, 'model.py')),
    codes(await lint({ 'model.py': modelText, 'train.py': train(build, 'eq') }, 'model.py')),
  ];
}

describe('cross-file: nn.Module methods that return the module keep the instance', () => {
  it('`Encoder(vocab=1000).to(device).eval()` given a mask True at tokens: reported in model.py; True at padding: silent', async () => {
    assert.deepEqual(await pair('Encoder(vocab=1000).to(device).eval()'), [['ATT002@13'], []]);
    const fs = await lint({ 'model.py': model(), 'train.py': train('Encoder(vocab=1000).to(device).eval()', 'ne') }, 'model.py');
    assert.ok(
      (fs[0]?.related ?? []).some((r) => r.path === 'train.py' && r.line === 11),
      'the call in train.py is a related location',
    );
  });

  for (const method of [
    'cuda()',
    'cpu()',
    'to(device)',
    'to(torch.bfloat16)',
    'train()',
    'train(False)',
    'eval()',
    'half()',
    'float()',
    'double()',
    'bfloat16()',
    'requires_grad_(False)',
    'apply(init_weights)',
    'type(torch.float64)',
    'share_memory()',
  ]) {
    it(`\`Encoder(vocab=1000).${method}\`: reported with the wrong mask, silent with the right one`, async () => {
      assert.deepEqual(await pair(`Encoder(vocab=1000).${method}`), [['ATT002@13'], []]);
    });
  }

  it('`zero_grad()` returns None, not the module: nothing is known of the value, silent either way', async () => {
    assert.deepEqual(await pair('Encoder(vocab=1000).zero_grad()'), [[], []]);
  });

  it('a method the class defines itself runs as written (`to` returning something else loses the instance)', async () => {
    const own = model(`
    def to(self, device):
        return Wrapper(self, device)
`);
    assert.deepEqual(await pair('Encoder(vocab=1000).to(device)', own), [[], []]);
    // Its own `eval` returning self keeps it.
    const returnsSelf = model(`
    def eval(self):
        super().eval()
        return self
`);
    assert.deepEqual(await pair('Encoder(vocab=1000).eval()', returnsSelf), [['ATT002@13'], []]);
  });

  it('a class with no base class has none of these methods: the value is unknown, silent', async () => {
    const plain = model().replace('class Encoder(nn.Module):', 'class Encoder:').replace('        super().__init__()\n', '');
    assert.deepEqual(await pair('Encoder(vocab=1000)', plain), [['ATT002@12'], []]);
    assert.deepEqual(await pair('Encoder(vocab=1000).cuda()', plain), [[], []]);
  });
});

describe('the same methods on a tensor keep their tensor meaning', () => {
  it('a keep mask moved with `.cuda()` or cast with `.half()` is still a keep mask (reported); a padding mask is silent', async () => {
    const code = (op: string, method: string) => `import torch.nn as nn

mha = nn.MultiheadAttention(64, 4, batch_first=True)


def step(x, ids):
    mask = ids.${op}(0).${method}
    y, _ = mha(x, x, x, key_padding_mask=mask)
    return y
`;
    for (const method of ['cuda()', 'to(x.device)', 'cpu()']) {
      assert.deepEqual(codes(await lint({ 'a.py': code('ne', method) }, 'a.py')), ['ATT002@8'], method);
      assert.deepEqual(codes(await lint({ 'a.py': code('eq', method) }, 'a.py')), [], method);
    }
  });
});
