// Session 45, eng-s45b: ATT007, class "the project's only training loop, in a folder beside the attention's, runs the
// model it is given in float16" (regression group, batch 3: a from-scratch transformer whose `transformer/attention.py`
// fills with -1e9 and whose `training/trainer.py` wraps `self.model(**inputs)` in `autocast()` with a `GradScaler`;
// a translation model whose `modelling/attention.py` fills with -1e9 twice and whose `run/train_model.py` trains the
// model it is given under `torch.cuda.amp.autocast()`).
//
// The trainer beside the file (same directory, in a package) was the only training loop that decided the precision of a
// file no importer runs; a loop in another folder was left out, since which model it trains is not shown. It is
// shown when that loop is the project's only one: among the Python files of the file's directory, of its parent and
// of the parent's other directories, exactly one takes a gradient step (`.backward(`), and it runs in half precision
// the model it is given (importing no workspace module, defining no torch module, never turning autocast off). A
// second loop (a float32 trainer, another model's), a trainer that imports the model it trains, a file at the
// workspace root or a parent with many directories keep the rule silent.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

const attention = (fill: string): string => `import math

import torch
import torch.nn.functional as F


def scaled_dot_product_attention(query, key, value, mask=None):
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 1, ${fill})
    return torch.matmul(F.softmax(scores, dim=-1), value)
`;
const FILL_LINE = 10;

const trainer = (precision: string): string => `import torch
from torch.cuda.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.scaler = GradScaler()

    def training_step(self, inputs):
        with ${precision}:
            loss = self.loss_fn(self.model(**inputs), inputs["labels"])
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
`;

const fp32Loop = `import torch


def train_epoch(model, loader, optimizer):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
`;

const lint = (files: Record<string, string>, path = 'transformer/attention.py'): Promise<number[]> => workspaceFindingLines(files, path, 'ATT007');

describe("ATT007: the project's only training loop, in a folder beside the attention's, runs it in float16 (session 45)", () => {
  it('reports -1e9 with the trainer in a sibling folder (training/trainer.py), naming it', async () => {
    const files = { 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': trainer('autocast()') };
    assert.deepEqual(await lint(files), [FILL_LINE]);
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const f = l.lintPython(files['transformer/attention.py'], { path: 'transformer/attention.py' }).find((x) => x.code === 'ATT007');
    assert.match(f?.message ?? '', /training\/trainer\.py:\d+, in the project's only training loop/);
    assert.ok(f?.related?.some((r) => r.path === 'training/trainer.py'));
  });

  it('is silent on the fixed fills (-1e4, the dtype minimum) and on a bfloat16 loop with -1e9', async () => {
    for (const fill of ['-1e4', 'torch.finfo(scores.dtype).min']) {
      assert.deepEqual(await lint({ 'transformer/attention.py': attention(fill), 'training/trainer.py': trainer('autocast()') }), [], fill);
    }
    const bf16 = trainer('torch.autocast("cuda", dtype=torch.bfloat16)')
      .replace('self.scaler = GradScaler()', 'self.scaler = None')
      .replace(/ {8}self\.scaler\.scale\(loss\)\.backward\(\)\n[^]*$/, '        loss.backward()\n        self.optimizer.step()\n');
    assert.deepEqual(await lint({ 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': bf16 }), []);
  });

  it('cross-file: the loop in the parent folder (train.py beside model/) counts; a model module beside the file changes nothing', async () => {
    const files = {
      'model/attention.py': attention('-1e9'),
      'model/layers.py': 'import torch\n\n\nclass FeedForward(torch.nn.Module):\n    pass\n',
      'train.py': trainer('autocast()'),
    };
    assert.deepEqual(await lint(files, 'model/attention.py'), [FILL_LINE]);
  });

  it('is silent with a second training loop anywhere in view (which one runs the file is not shown)', async () => {
    const base = { 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': trainer('autocast()') };
    assert.deepEqual(await lint({ ...base, 'training/train_fp32.py': fp32Loop }), []);
    assert.deepEqual(await lint({ ...base, 'baselines/rnn_train.py': fp32Loop }), []);
    assert.deepEqual(await lint({ ...base, 'transformer/finetune.py': fp32Loop }), []);
  });

  it('is silent when the loop imports a workspace module, defines a model, turns autocast off, or the file is at the root', async () => {
    const imports = `from transformer.attention import scaled_dot_product_attention\n${trainer('autocast()')}`;
    assert.deepEqual(
      await lint({
        'transformer/attention.py': attention('-1e9'),
        'training/trainer.py': imports.replace(/^from transformer.*\n/, 'from data.loader import batches\n'),
        'data/loader.py': 'def batches():\n    return []\n',
      }),
      [],
    );
    const own = `${trainer('autocast()')}\n\nclass Probe(torch.nn.Module):\n    pass\n`;
    assert.deepEqual(await lint({ 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': own }), []);
    assert.deepEqual(await lint({ 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': trainer('autocast(enabled=False)') }), []);
    assert.deepEqual(
      await workspaceFindingLines({ 'attention.py': attention('-1e9'), 'training/trainer.py': trainer('autocast()') }, 'attention.py', 'ATT007'),
      [],
    );
  });

  it('is silent when the parent holds many folders (a repository of many projects)', async () => {
    const files: Record<string, string> = { 'transformer/attention.py': attention('-1e9'), 'training/trainer.py': trainer('autocast()') };
    for (let i = 0; i < 14; i++) files[`project${i}/README.py`] = `NAME = "project ${i}"\n`;
    assert.deepEqual(await lint(files), []);
  });
});
