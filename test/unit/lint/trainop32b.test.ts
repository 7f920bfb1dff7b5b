// Session 32 (trainop32b): classes from the training folders o and p, each with its natural example, its correct
// form (silent), a cross-file pair, and the correct forms a naive fix would misread.
//  1. ATT007, the training loop of the package: a module beside the attention module (same directory) that runs the
//     model it is given under float16 (`GradScaler()`, `autocast(enabled=self.use_amp)` around `self.model(batch)`),
//     importing no workspace module and defining no torch module of its own, makes the attention's fills judged in
//     float16 when no importing file decides the precision. An `enabled=` flag whose value the code does not show is
//     the option the trainer offers (read as the file-level precision evidence reads it everywhere): with it on, the
//     fill overflows; a flag shown False is no evidence.
//  2. ATT004, a scale read off the queries' query axis: `dk = q.shape[1]` of `(B, N, d)` queries (or `q.shape[-2]`) on
//     scores `q @ k.transpose(1, 2)` is the number of queries, not the width the product sums over.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

// ------------------------------------------------------------------------------------------------ 1. ATT007

/** An attention function filling the masked scores with `fill` (line 8). */
const attention = (fill: string): string => `import math

import torch
import torch.nn.functional as F

def attention(q, k, v, mask=None):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, ${fill})
    return torch.matmul(F.softmax(scores, dim=-1), v)
`;
const FILL_LINE = 8;

/** A trainer class that runs the model it is given under autocast (`autocast` the call written). */
const trainerClass = (autocast: string, head = 'from torch.cuda import amp\n'): string => `${head}

class Trainer:
    def __init__(self, model, optimizer, loader, cfg):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.scaler = amp.GradScaler()
        self.use_amp = bool(cfg.mixed_precision)

    def epoch(self):
        for batch in self.loader:
            with ${autocast}:
                loss = self.model(batch)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
`;

/** A training function that runs the model it is given under `autocast`. */
const trainFunction = (autocast: string, head = 'import torch\nfrom torch.cuda.amp import autocast\n'): string => `${head}

def train(model, loader, optimizer):
    model.train()
    for x, y in loader:
        with ${autocast}:
            loss = model(x, y)
        loss.backward()
        optimizer.step()
`;

/** The package's `__init__.py`: the directory is a package, not a folder of standalone scripts. */
const PKG = { 'pkg/__init__.py': '' };

async function att007(files: Record<string, string>, path = 'pkg/attention.py'): Promise<number[]> {
  return workspaceFindingLines(files, path, 'ATT007');
}

describe('trainop32b class 1: ATT007, the training loop of the package runs the model in float16', () => {
  it('a trainer class beside the attention (GradScaler, autocast(enabled=self.use_amp)): -1e9 is reported, naming the trainer', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/attention.py': attention('-1e9'), 'pkg/trainer.py': trainerClass('amp.autocast(enabled=self.use_amp)') };
    assert.deepEqual(await att007(files), [FILL_LINE]);
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const f = l.lintPython(files['pkg/attention.py'], { path: 'pkg/attention.py' }).find((x) => x.code === 'ATT007');
    assert.match(f?.message ?? '', /pkg\/trainer\.py:\d+, in the training loop of its package/);
    assert.ok(f?.related?.some((r) => r.path === 'pkg/trainer.py'));
  });
  it('a training function given the model (autocast()): reported; -1e10 and float("-1e9") too', async () => {
    for (const fill of ['-1e9', '-1e10', '-float("1e9")']) {
      assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention(fill), 'pkg/train_utils.py': trainFunction('autocast()') }), [FILL_LINE], fill);
    }
  });
  it('fixed forms stay silent: -1e4, the dtype minimum, a fill chosen by the dtype of the scores', async () => {
    const trainer = trainerClass('amp.autocast(enabled=self.use_amp)');
    for (const fill of ['-1e4', 'torch.finfo(scores.dtype).min', '-1e9 if scores.dtype == torch.float32 else -1e4']) {
      assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention(fill), 'pkg/trainer.py': trainer }), [], fill);
    }
  });
  it('bfloat16 in the trainer: -1e9 fits (silent); float32 minimum is reported', async () => {
    const bf16 = trainFunction('torch.autocast("cuda", dtype=torch.bfloat16)');
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/loop.py': bf16 }), []);
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('torch.finfo(torch.float32).min'), 'pkg/loop.py': bf16 }), [FILL_LINE]);
  });
  it('cross-file pair: a trainer that imports the attention (importer evidence) is reported as before, named as an importer', async () => {
    const files = {
      'pkg/attention.py': attention('-1e9'),
      'pkg/train.py': `from torch.cuda.amp import autocast\nfrom pkg.attention import attention\n\ndef step(q, k, v, m):\n    with autocast():\n        return attention(q, k, v, m)\n`,
    };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const f = l.lintPython(files['pkg/attention.py'], { path: 'pkg/attention.py' }).filter((x) => x.code === 'ATT007');
    assert.deepEqual(
      f.map((x) => x.line),
      [FILL_LINE],
    );
    assert.match(f[0]?.message ?? '', /in a file that imports it/);
  });
  it('naive misreadings stay silent: a trainer of a model it imports, or builds itself, or in another directory', async () => {
    const own = `${trainFunction('autocast()')}\nfrom pkg.cnn import Classifier\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/cnn.py': 'import torch\n', 'pkg/train_cnn.py': own }), []);
    const builds = `${trainFunction('autocast()')}\n\nclass Probe(torch.nn.Module):\n    def forward(self, x):\n        return x\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/probe.py': builds }), []);
    const builds2 = `import torch.nn as nn\n${trainFunction('autocast()')}\n\nclass Head(nn.Module):\n    pass\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/probe.py': builds2 }), []);
    // In another directory with a second training loop beside it (session 45: the project's only loop in a folder
    // beside the file's is evidence, att007-project-trainer45.test.ts; with two, which one runs this file is not shown).
    const fp32Loop = trainFunction('torch.enable_grad()').replace('def train(', 'def train_fp32(');
    assert.deepEqual(
      await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'scripts/train.py': trainFunction('autocast()'), 'scripts/train_fp32.py': fp32Loop }),
      [],
    );
  });
  it('naive misreadings stay silent: autocast turned off, a flag shown False, only a comment, another framework', async () => {
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/loop.py': trainFunction('autocast(enabled=False)') }), []);
    const off = `import torch\n\ndef train(model, loader, use_amp=False):\n    for x in loader:\n        loss = model(x)\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/loop.py': off }), []);
    const prose = `import torch\n\n# trains in fp16 with mixed precision on the cluster\ndef train(model, loader):\n    for x in loader:\n        loss = model(x)\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/loop.py': prose }), []);
    const tf = `import tensorflow as tf\n\ntf.keras.mixed_precision.set_global_policy("mixed_float16")\n\ndef train(model, ds):\n    model.fit(ds)\n`;
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': attention('-1e9'), 'pkg/loop.py': tf }), []);
  });
  it('not a package (no __init__.py: a folder of standalone scripts), or the file itself says its precision: silent / its own', async () => {
    assert.deepEqual(
      await workspaceFindingLines(
        { 'scripts/attention.py': attention('-1e9'), 'scripts/loop.py': trainFunction('autocast()') },
        'scripts/attention.py',
        'ATT007',
      ),
      [],
    );
    // The file's own prose says fp16: it stands (the bfloat16 trainer beside it does not replace it).
    const prose = attention('-1e9').replace('def attention(', '# runs in fp16 on the serving GPUs\ndef attention(');
    assert.deepEqual(await att007({ ...PKG, 'pkg/attention.py': prose, 'pkg/loop.py': trainFunction('torch.autocast("cuda", dtype=torch.bfloat16)') }), [
      FILL_LINE + 1,
    ]);
  });
  it('an importing file that sets full precision outranks the trainer beside it', async () => {
    const files = {
      ...PKG,
      'pkg/attention.py': attention('-1e9'),
      'pkg/loop.py': trainFunction('autocast()'),
      'pkg/run.py': `import torch\nfrom pkg.attention import attention\n\nx = torch.zeros(2, dtype=torch.float32)\n`,
    };
    assert.deepEqual(await att007(files), []);
  });
});

// ------------------------------------------------------------------------------------------------ 2. ATT004

/** One head's attention: `dk` as the code reads it, and how the rank of q is shown (line of the softmax: 10). */
const oneHead = (dk: string, shown = '# q, k: (batch, n_token, dk); v: (batch, n_token, dv)'): string => `from math import sqrt

import torch
import torch.nn.functional as F


def one_head(q, k, v):
    ${shown}
    logits = q @ k.transpose(1, 2)
    dk = ${dk}
    weights = F.softmax(logits / sqrt(dk), dim=-1)
    return weights @ v
`;
const SOFTMAX_LINE = 11;

describe('trainop32b class 2: ATT004, a scale read off the query axis of the queries that form the scores', () => {
  it('dk = q.shape[1] of (batch, n, d) queries (stated shape, or unpacked by the code) is reported; q.size(1) too', async () => {
    assert.deepEqual(await findingLines(oneHead('q.shape[1]'), 'ATT004'), [SOFTMAX_LINE]);
    assert.deepEqual(await findingLines(oneHead('q.size(1)'), 'ATT004'), [SOFTMAX_LINE]);
    assert.deepEqual(await findingLines(oneHead('q.shape[1]', 'B, N, D = q.shape'), 'ATT004'), [SOFTMAX_LINE]);
  });
  it('q.shape[-2] needs no rank: the row axis of a matmul`s left operand', async () => {
    assert.deepEqual(await findingLines(oneHead('q.shape[-2]', 'pass'), 'ATT004'), [SOFTMAX_LINE]);
  });
  it('fixed forms stay silent: q.shape[2], q.shape[-1], q.size(-1)', async () => {
    for (const dk of ['q.shape[2]', 'q.shape[-1]', 'q.size(-1)']) assert.deepEqual(await findingLines(oneHead(dk), 'ATT004'), [], dk);
  });
  it('naive misreadings stay silent: rank unknown, 2-D queries, an einsum or a transposed operand that contracts axis 1', async () => {
    // q's rank not shown: shape[1] may be the width of (N, d) queries.
    assert.deepEqual(await findingLines(oneHead('q.shape[1]', 'pass'), 'ATT004'), []);
    // (N, d) queries: axis 1 is their width, the size the product sums over.
    assert.deepEqual(await findingLines(oneHead('q.shape[1]', '# q, k: (n_token, dk)').replace('k.transpose(1, 2)', 'k.T'), 'ATT004'), []);
    const channelsFirst = (scores: string): string => `from math import sqrt

import torch
import torch.nn.functional as F


def attend(q, k, v):
    # q, k: (batch, dk, n_token)
    logits = ${scores}
    dk = q.shape[1]
    return F.softmax(logits / sqrt(dk), dim=-1)
`;
    assert.deepEqual(await findingLines(channelsFirst("torch.einsum('bdn,bdm->bnm', q, k)"), 'ATT004'), []);
    assert.deepEqual(await findingLines(channelsFirst('q.transpose(1, 2) @ k'), 'ATT004'), []);
    assert.deepEqual(await findingLines(channelsFirst('torch.bmm(q.transpose(1, 2), k)'), 'ATT004'), []);
  });
  it('the product in a helper of the file (`logits = scores_of(q, k)`): its left operand in that call is the q read', async () => {
    const helper = (dk: string): string =>
      oneHead(dk).replace('    logits = q @ k.transpose(1, 2)', '    logits = scores_of(q, k)') +
      '\n\ndef scores_of(a, b):\n    return a @ b.transpose(1, 2)\n';
    assert.deepEqual(await findingLines(helper('q.shape[1]'), 'ATT004'), [SOFTMAX_LINE]);
    assert.deepEqual(await findingLines(helper('q.shape[2]'), 'ATT004'), []);
    // The helper multiplies the other operand on the left: q is its right operand, transposed, so it contracts q's axis
    // 2 and q's axis 1 (n_token) becomes the scores' columns: a length all the same (reg-scale-s36, the number of keys).
    const swapped = (dk: string): string =>
      oneHead(dk).replace('    logits = q @ k.transpose(1, 2)', '    logits = scores_of(q, k)') +
      '\n\ndef scores_of(a, b):\n    return b @ a.transpose(1, 2)\n';
    assert.deepEqual(await findingLines(swapped('q.shape[1]'), 'ATT004'), [SOFTMAX_LINE]);
    assert.deepEqual(await findingLines(swapped('q.shape[2]'), 'ATT004'), []);
  });
  it('cross-file pair: the routine in one module, the blocks that call it in another (reported in the routine)', async () => {
    const files = (dk: string): Record<string, string> => ({
      'setnet/__init__.py': '',
      'setnet/heads.py': `import torch
from torch import nn

from setnet.single import one_head


class MultiHead(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x):
        qs = self.q(x).chunk(self.n_heads, dim=-1)
        ks = self.k(x).chunk(self.n_heads, dim=-1)
        vs = self.v(x).chunk(self.n_heads, dim=-1)
        return torch.cat([one_head(qs[i], ks[i], vs[i]) for i in range(self.n_heads)], dim=-1)
`,
      'setnet/single.py': oneHead(dk),
    });
    assert.deepEqual(await workspaceFindingLines(files('q.shape[1]'), 'setnet/single.py', 'ATT004'), [SOFTMAX_LINE]);
    assert.deepEqual(await workspaceFindingLines(files('q.shape[2]'), 'setnet/single.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines(files('q.shape[1]'), 'setnet/heads.py', 'ATT004'), []);
  });
});
