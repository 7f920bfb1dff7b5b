// Padding masks built the way data code builds them, and carried to the model the way a training loop carries them.
// Class 1, per-example regions written into a fresh tensor (analysis/evaluator.ts keptRegion): zeros with 1 up to
// each length keep, zeros with 1 from each length on mark the padding, ones cut to 0 from each length keep, and one
// example's mask made in a helper (`m = zeros(L); m[:n] = True`), stacked from a list the loop appends to.
// Class 2, the batch a DataLoader's collate function makes (analysis/data-loaders.ts): a dict read back by key, a
// collator instance's `__call__`, a dataclass, crossing files; and an encoder whose forward hands its padding mask to
// its attention layers, judged as the importing file calls the encoder. Each with its correct form (silent), and the
// case where nothing in the code links the collate function to the model (silent: a shared name is not a data flow).
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

async function lintOne(src: string): Promise<string[]> {
  const l = await createLinter(grammar(), { onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(src).map((f) => `${f.code}@${f.line}`);
}

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);
const foreign = (f: Finding | undefined): string[] =>
  (f?.related ?? []).filter((r) => r.path !== undefined).map((r) => `${r.path}:${r.line}:${r.column} ${r.message}`);

const encoder = (build: string, use: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, lengths):
        B, L, _ = x.shape
${build
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
        return ${use}
`;

describe('class 1: padding masks written per example into zeros or ones', () => {
  const mha = (m: string): string => `self.attn(x, x, x, key_padding_mask=${m})[0]`;
  it('ones cut to False from each length on are True at real positions: ATT002 as key_padding_mask; its inverse is silent', async () => {
    const build = 'pad = torch.ones(B, L, dtype=torch.bool, device=x.device)\nfor i in range(B):\n    pad[i, lengths[i]:] = False';
    assert.deepEqual(await lintOne(encoder(build, mha('pad'))), ['ATT002@17']);
    assert.deepEqual(await lintOne(encoder(build, mha('~pad'))), []);
  });
  it('zeros set True from each length on mark the padding: right for key_padding_mask, ATT002 as an SDPA boolean attn_mask', async () => {
    const build = 'pad = torch.zeros(B, L, dtype=torch.bool, device=x.device)\nfor i, n in enumerate(lengths):\n    pad[i, n:] = True';
    assert.deepEqual(await lintOne(encoder(build, mha('pad'))), []);
    const sdpa = (m: string): string => `F.scaled_dot_product_attention(x, x, x, attn_mask=${m}[:, None, :])`;
    assert.deepEqual(await lintOne(encoder(build, sdpa('pad'))), ['ATT002@17']);
    assert.deepEqual(await lintOne(encoder(build, sdpa('~pad'))), []);
  });
  it("one example's mask from a helper, gathered in lists bound together and stacked: ATT002; the helper returning ~mask is silent", async () => {
    const src = (ret: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F


def pad_clip(wav, target_len: int):
    n = wav.size(-1)
    if n >= target_len:
        return wav[..., :target_len], torch.ones(target_len, dtype=torch.bool)
    valid = torch.zeros(target_len, dtype=torch.bool)
    valid[:n] = True
    return F.pad(wav, (0, target_len - n)), ${ret}


class Encoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, clips, target_len: int):
        xs, masks = [], []
        for c in clips:
            x, m = pad_clip(c, target_len)
            xs.append(x)
            masks.append(m)
        x = torch.stack(xs)
        return self.attn(x, x, x, key_padding_mask=torch.stack(masks))[0]
`;
    assert.deepEqual(await lintOne(src('valid')), ['ATT002@27']);
    // The fixed helper returns the padding (and all False when nothing is padded).
    const fixed = src('~valid').replace('torch.ones(target_len, dtype=torch.bool)', 'torch.zeros(target_len, dtype=torch.bool)');
    assert.deepEqual(await lintOne(fixed), []);
  });
});

const layers = `import torch.nn as nn


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x, key_padding_mask=None):
        return x + self.attn(x, x, x, key_padding_mask=key_padding_mask)[0]


class Encoder(nn.Module):
    def __init__(self, d=256, h=4, n=2):
        super().__init__()
        self.layers = nn.ModuleList([Layer(d, h) for _ in range(n)])

    def forward(self, feats, padding_mask=None):
        x = feats
        for layer in self.layers:
            x = layer(x, key_padding_mask=padding_mask)
        return x
`;

const collate = (fill: string): string => `import torch


def collate(items):
    L = max(it["feats"].size(0) for it in items)
    feats = torch.zeros(len(items), L, items[0]["feats"].size(1))
    mask = torch.zeros(len(items), L, dtype=torch.bool)
    for i, it in enumerate(items):
        n = it["feats"].size(0)
        feats[i, :n] = it["feats"]
        mask[i, ${fill}] = True
    return {"feats": feats, "padding_mask": mask}
`;

const train = `from torch.utils.data import DataLoader

from data.collate import collate
from model.layers import Encoder


def train(dataset):
    model = Encoder()
    for batch in DataLoader(dataset, batch_size=8, collate_fn=collate):
        out = model(batch["feats"], padding_mask=batch["padding_mask"])
        out.sum().backward()
`;

describe('class 2: the mask a collate function returns, reaching the model through the batch', () => {
  it("a dict batch from a collate function in another file, through the encoder's forward to its layer: ATT002 linking the collate", async () => {
    const fs = await lint({ 'data/collate.py': collate(':n'), 'model/layers.py': layers, 'train.py': train }, 'model/layers.py');
    assert.deepEqual(codes(fs), ['ATT002@10']);
    assert.match(fs[0].message, /from `collate` in data\/collate\.py:11\b/);
    assert.deepEqual(foreign(fs[0]), [
      'train.py:10:15 `Encoder.forward` is called here, in a file that imports this one',
      'data/collate.py:11:9 the mask is built in `collate` (data/collate.py:11)',
    ]);
  });
  it('the same project with the collate marking the padding (`mask[i, n:] = True`): silent', async () => {
    assert.deepEqual(await lint({ 'data/collate.py': collate('n:'), 'model/layers.py': layers, 'train.py': train }, 'model/layers.py'), []);
  });
  it('a collator instance (`collate_fn=Collator()`, its `__call__`) and a dataclass batch read by attribute', async () => {
    const collator = collate(':n')
      .replace('def collate(items):', 'class Collator:\n    def __call__(self, items):')
      .split('\n')
      .map((l, i) => (i > 4 && l.trim() !== '' ? `    ${l}` : l))
      .join('\n');
    const viaCollator = train.replace('import collate', 'import Collator').replace('collate_fn=collate', 'collate_fn=Collator()');
    assert.deepEqual(codes(await lint({ 'data/collate.py': collator, 'model/layers.py': layers, 'train.py': viaCollator }, 'model/layers.py')), ['ATT002@10']);
    const dataclass = collate(':n')
      .replace(
        'import torch\n',
        'from dataclasses import dataclass\n\nimport torch\n\n\n@dataclass\nclass Batch:\n    feats: torch.Tensor\n    padding_mask: torch.Tensor\n',
      )
      .replace('return {"feats": feats, "padding_mask": mask}', 'return Batch(feats=feats, padding_mask=mask)');
    const byAttribute = train.replace('model(batch["feats"], padding_mask=batch["padding_mask"])', 'model(batch.feats, padding_mask=batch.padding_mask)');
    assert.deepEqual(codes(await lint({ 'data/collate.py': dataclass, 'model/layers.py': layers, 'train.py': byAttribute }, 'model/layers.py')), ['ATT002@10']);
  });
  it("the encoder in one file, its layer in another: the layer's finding as the training script calls the encoder (one importer hop more)", async () => {
    const layerOnly = layers.slice(0, layers.indexOf('class Encoder'));
    const encoderFile = `import torch.nn as nn

from model.layers import Layer


${layers.slice(layers.indexOf('class Encoder'))}`;
    const files = (fill: string): Record<string, string> => ({
      'data/collate.py': collate(fill),
      'model/layers.py': layerOnly,
      'model/encoder.py': encoderFile,
      'train.py': train.replace('model.layers', 'model.encoder'),
    });
    const fs = await lint(files(':n'), 'model/layers.py');
    assert.deepEqual(codes(fs), ['ATT002@10']);
    assert.ok(foreign(fs[0]).includes('data/collate.py:11:9 the mask is built in `collate` (data/collate.py:11)'), foreign(fs[0]).join('\n'));
    assert.deepEqual(await lint(files('n:'), 'model/layers.py'), []);
  });
  it("one batch taken with `next(iter(loader))` and passed as `model(**batch)`: the dict's entries by keyword; a dict of unknown keys says nothing", async () => {
    const oneBatch = train.replace(
      '    for batch in DataLoader(dataset, batch_size=8, collate_fn=collate):\n        out = model(batch["feats"], padding_mask=batch["padding_mask"])\n        out.sum().backward()',
      '    batch = next(iter(DataLoader(dataset, batch_size=8, collate_fn=collate)))\n    return model(**batch)',
    );
    assert.notEqual(oneBatch, train);
    assert.deepEqual(codes(await lint({ 'data/collate.py': collate(':n'), 'model/layers.py': layers, 'train.py': oneBatch }, 'model/layers.py')), [
      'ATT002@10',
    ]);
    assert.deepEqual(await lint({ 'data/collate.py': collate('n:'), 'model/layers.py': layers, 'train.py': oneBatch }, 'model/layers.py'), []);
    const unknownKeys = oneBatch
      .replace('return model(**batch)', 'return model(**{**batch, **extra})')
      .replace('def train(dataset):', 'def train(dataset, extra):');
    assert.deepEqual(await lint({ 'data/collate.py': collate(':n'), 'model/layers.py': layers, 'train.py': unknownKeys }, 'model/layers.py'), []);
  });
  it('a collate function and a model linked by nothing the code states (no DataLoader, no call): silent', async () => {
    assert.deepEqual(await lint({ 'data/collate.py': collate(':n'), 'model/layers.py': layers }, 'model/layers.py'), []);
  });
});
