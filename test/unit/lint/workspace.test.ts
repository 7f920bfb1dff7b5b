// Cross-file analysis within a workspace (src/lint/analysis/workspace.ts, cross-file.ts, portable.ts):
// import resolution, the per-file cache of imported modules and its invalidation, and buggy/fixed pairs
// whose evidence is in another file (a finding names that file and carries it as a related location).
import { strict as assert } from 'node:assert';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { importRoots, lineOf, moduleBases, moduleFile, normalizeRelPath, WorkspaceAnalysis, type WorkspaceFiles } from '../../../src/lint/analysis/workspace';
import { createPythonParser } from '../../../src/lint/parser';
import { createLinter, type ExtendedLinter, type Finding } from '../../../src/lint';
import { grammar } from './helpers';

/** An in-memory workspace whose files can be edited (each edit bumps the file's version); reads are counted. */
class MemoryWorkspace implements WorkspaceFiles {
  private readonly files = new Map<string, { text: string; version: number }>();
  reads = 0;

  constructor(files: Record<string, string>) {
    for (const [p, t] of Object.entries(files)) this.set(p, t);
  }

  set(path: string, text: string): void {
    this.files.set(path, { text, version: (this.files.get(path)?.version ?? 0) + 1 });
  }

  delete(path: string): void {
    this.files.delete(path);
  }

  read(path: string): string | undefined {
    this.reads++;
    return this.files.get(path)?.text;
  }

  version(path: string): number | undefined {
    return this.files.get(path)?.version;
  }

  listPython(dir: string): string[] {
    return [...this.files.keys()].filter((p) => p.endsWith('.py') && (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') === dir).sort();
  }
}

const SDPA_CALLER = (importLine: string, maskExpr: string) => `import torch
import torch.nn.functional as F
${importLine}


def attend(q, k, v, input_ids):
    mask = ${maskExpr}
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`;

const PAD_HELPERS = `import torch


def make_pad_mask(input_ids, pad_id=0):
    pad = input_ids.eq(pad_id)
    return pad[:, None, None, :]


def make_keep_mask(input_ids, pad_id=0):
    keep = input_ids.ne(pad_id)
    return keep[:, None, None, :]
`;

/**
 * Files on disk with documents open over them, as the editor's lint worker sees them: an open document's
 * version is the editor's, which starts at 1 each time the document is opened; closing drops the unsaved text.
 */
class EditorWorkspace implements WorkspaceFiles {
  private readonly disk: Map<string, string>;
  private readonly docs = new Map<string, { text: string; version: number }>();

  constructor(files: Record<string, string>) {
    this.disk = new Map(Object.entries(files));
  }

  open(path: string): void {
    this.docs.set(path, { text: this.disk.get(path) ?? '', version: 1 });
  }

  edit(path: string, text: string): void {
    const doc = this.docs.get(path);
    assert.ok(doc, `${path} is not open`);
    this.docs.set(path, { text, version: doc.version + 1 });
  }

  close(path: string): void {
    this.docs.delete(path);
  }

  read(path: string): string | undefined {
    return this.docs.get(path)?.text ?? this.disk.get(path);
  }

  version(path: string): string | undefined {
    const doc = this.docs.get(path);
    if (doc) return `open:${doc.version}`;
    return this.disk.has(path) ? 'disk' : undefined;
  }

  listPython(dir: string): string[] {
    return [...this.disk.keys()].filter((p) => p.endsWith('.py') && (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') === dir).sort();
  }
}

async function workspaceLinter(ws: WorkspaceFiles): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: ws, onInternalError: (e) => assert.fail(String(e)) });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

describe('workspace: lineOf', () => {
  it('gives the 1-based line of an offset (the count of line breaks before it, plus one), for any text and offset', () => {
    const naive = (src: string, offset: number): number => src.slice(0, offset).split('\n').length;
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let t = 0; t < 40; t++) {
      const src = Array.from({ length: rand(60) }, () => (rand(4) === 0 ? '\n' : 'x')).join('');
      for (let offset = 0; offset <= src.length + 1; offset++) assert.equal(lineOf(src, offset), naive(src, offset), `${JSON.stringify(src)} @ ${offset}`);
    }
    assert.equal(lineOf('', 0), 1);
    assert.equal(lineOf('a\nb\nc', 4), 3);
  });
});

describe('workspace: import resolution', () => {
  const ws = new MemoryWorkspace({
    'pkg/__init__.py': 'from .masks import make_pad_mask\n',
    'pkg/masks.py': PAD_HELPERS,
    'pkg/sub/__init__.py': '',
    'pkg/sub/model.py': '',
    'src/lib/__init__.py': '',
    'src/lib/util.py': '',
    'tools/run.py': '',
  });

  it('normalizes workspace paths and refuses ones that leave the root', () => {
    assert.equal(normalizeRelPath('pkg/./sub/../masks.py'), 'pkg/masks.py');
    assert.equal(normalizeRelPath('pkg\\masks.py'), 'pkg/masks.py');
    assert.equal(normalizeRelPath('/pkg/masks.py'), 'pkg/masks.py');
    assert.equal(normalizeRelPath('../outside.py'), undefined);
    assert.equal(normalizeRelPath('pkg/../../outside.py'), undefined);
  });

  it('finds modules as a.py or a/__init__.py, relative to the file (dots) or from the import roots', () => {
    assert.equal(moduleFile(ws, 'pkg', ['masks']), 'pkg/masks.py');
    assert.equal(moduleFile(ws, '', ['pkg']), 'pkg/__init__.py');
    assert.equal(moduleFile(ws, '', ['pkg', 'sub', 'model']), 'pkg/sub/model.py');
    assert.equal(moduleFile(ws, '', ['torch']), undefined);
    assert.equal(moduleFile(ws, '', ['pkg', '../x']), undefined);
    // `from . import x` in pkg/sub/model.py looks in pkg/sub; `from .. import x` in pkg.
    assert.deepEqual(moduleBases(ws, 'pkg/sub/model.py', 1), ['pkg/sub']);
    assert.deepEqual(moduleBases(ws, 'pkg/sub/model.py', 2), ['pkg']);
    assert.deepEqual(moduleBases(ws, 'pkg/sub/model.py', 4), []);
    // Absolute imports: the root, above the top package, and src/.
    assert.deepEqual(importRoots(ws, 'pkg/sub/model.py'), ['', 'src']);
    assert.deepEqual(importRoots(ws, 'src/lib/util.py'), ['', 'src']);
    assert.deepEqual(importRoots(ws, 'tools/run.py'), ['', 'tools', 'src']);
  });

  it('follows `from .m import f`, `from pkg.m import f`, `import pkg.m as m`, `from . import m` and an __init__ re-export', async () => {
    const forms: [string, string, string][] = [
      ['pkg/model.py', 'from .masks import make_pad_mask', 'make_pad_mask(input_ids)'],
      ['pkg/model.py', 'from pkg.masks import make_pad_mask', 'make_pad_mask(input_ids)'],
      ['pkg/model.py', 'import pkg.masks as m', 'm.make_pad_mask(input_ids)'],
      ['pkg/model.py', 'from . import masks', 'masks.make_pad_mask(input_ids)'],
      ['pkg/model.py', 'import pkg.masks', 'pkg.masks.make_pad_mask(input_ids)'],
      ['train.py', 'from pkg import make_pad_mask', 'make_pad_mask(input_ids)'],
      ['pkg/sub/model.py', 'from ..masks import make_pad_mask as pad_mask_of', 'pad_mask_of(input_ids)'],
      ['src/lib/model.py', 'from pkg.masks import make_pad_mask', 'make_pad_mask(input_ids)'],
    ];
    for (const [path, imp, expr] of forms) {
      const l = await workspaceLinter(ws);
      const fs = l.lintPython(SDPA_CALLER(imp, expr), { path });
      assert.deepEqual(codes(fs), ['ATT002@8'], `${path}: ${imp}`);
      assert.match(fs[0].message, /from `make_pad_mask` in pkg\/masks\.py:5/, imp);
      assert.ok(l.workspaceDependencies(path).includes('pkg/masks.py'), imp);
    }
  });

  it('stays silent (and reads nothing) without a workspace or a path, and for names it cannot resolve', async () => {
    const plain = await createLinter(grammar());
    assert.deepEqual(plain.lintPython(SDPA_CALLER('from .masks import make_pad_mask', 'make_pad_mask(input_ids)')), []);
    const l = await workspaceLinter(ws);
    assert.deepEqual(l.lintPython(SDPA_CALLER('from .masks import make_pad_mask', 'make_pad_mask(input_ids)')), []);
    assert.deepEqual(l.lintPython(SDPA_CALLER('from .nowhere import make_pad_mask', 'make_pad_mask(input_ids)'), { path: 'pkg/model.py' }), []);
    assert.deepEqual(l.lintPython(SDPA_CALLER('from .masks import not_defined', 'not_defined(input_ids)'), { path: 'pkg/model.py' }), []);
    // A workspace file never stands in for a library it shares a name with.
    const shadow = new MemoryWorkspace({ 'torch.py': 'def tril(x):\n    return x\n', 'model.py': '' });
    const ls = await workspaceLinter(shadow);
    assert.deepEqual(
      ls.lintPython(SDPA_CALLER('', '~torch.tril(torch.ones(4, 4, dtype=torch.bool))'), { path: 'model.py' }).map((f) => f.code),
      ['ATT002'],
    );
  });

  it('survives import cycles (a module importing the file that imports it)', async () => {
    const cyc = new MemoryWorkspace({
      'a.py': SDPA_CALLER('from b import make_pad_mask', 'make_pad_mask(input_ids)'),
      'b.py': `from a import attend\n${PAD_HELPERS}`,
    });
    const l = await workspaceLinter(cyc);
    assert.deepEqual(codes(l.lintPython(cyc.read('a.py')!, { path: 'a.py' })), ['ATT002@8']);
    assert.deepEqual(l.lintPython(cyc.read('b.py')!, { path: 'b.py' }), []);
  });
});

describe('workspace: the module cache', () => {
  it('analyses an imported file once, again only when it or a file it read changes', async () => {
    const ws = new MemoryWorkspace({
      'pkg/__init__.py': '',
      'pkg/masks.py': 'from .base import pad_of\n\n\ndef make_pad_mask(input_ids):\n    return pad_of(input_ids)[:, None, None, :]\n',
      'pkg/base.py': 'def pad_of(ids):\n    return ids.eq(0)\n',
    });
    const parser = await createPythonParser(grammar());
    const wa = new WorkspaceAnalysis(
      ws,
      (src) => parser.parse(src, { full: true }),
      (tree, sr, link) => new Evaluator(tree, sr, link),
    );
    const first = wa.module('pkg/masks.py');
    assert.ok(first);
    assert.equal(wa.module('pkg/masks.py'), first, 'reused while nothing changed');
    assert.equal(wa.analysed, 1);
    // Evaluating its import reads pkg/base.py (a dependency of pkg/masks.py).
    const def = first.sr.module.envAtEnd.get('pad_of')![0];
    first.ev.evalDef(def, first.ev.defaultCtx(first.sr.module));
    assert.deepEqual([...first.deps.keys()], ['pkg/base.py']);
    assert.equal(wa.analysed, 2);
    ws.set('pkg/base.py', 'def pad_of(ids):\n    return ids.ne(0)\n');
    const second = wa.module('pkg/masks.py');
    assert.notEqual(second, first, 'a changed dependency makes it stale');
    ws.set('pkg/masks.py', '');
    assert.notEqual(wa.module('pkg/masks.py'), second, 'a changed file makes it stale');
    ws.delete('pkg/masks.py');
    assert.equal(wa.module('pkg/masks.py'), undefined);
  });

  it('the linter sees an edit of the imported file at the next lint (buggy helper fixed, fixed helper broken)', async () => {
    const ws = new MemoryWorkspace({ 'utils.py': PAD_HELPERS, 'model.py': '' });
    const l = await workspaceLinter(ws);
    const model = SDPA_CALLER('from utils import make_pad_mask', 'make_pad_mask(input_ids)');
    assert.deepEqual(codes(l.lintPython(model, { path: 'model.py' })), ['ATT002@8']);
    const readsBefore = ws.reads;
    assert.deepEqual(codes(l.lintPython(model, { path: 'model.py' })), ['ATT002@8']);
    assert.equal(ws.reads, readsBefore, 'an unchanged import is not read again');
    ws.set('utils.py', PAD_HELPERS.replace('input_ids.eq(pad_id)', 'input_ids.ne(pad_id)'));
    assert.deepEqual(l.lintPython(model, { path: 'model.py' }), []);
    ws.set('utils.py', PAD_HELPERS);
    l.invalidateWorkspaceFile('utils.py');
    assert.deepEqual(codes(l.lintPython(model, { path: 'model.py' })), ['ATT002@8']);
  });
});

describe('workspace: evidence in another file', () => {
  it('a mask helper in utils.py used from model.py: buggy (named, related location) and fixed (silent)', async () => {
    const ws = new MemoryWorkspace({ 'utils.py': PAD_HELPERS, 'model.py': '' });
    const l = await workspaceLinter(ws);
    const buggy = l.lintPython(SDPA_CALLER('from utils import make_pad_mask', 'make_pad_mask(input_ids)'), { path: 'model.py' });
    assert.deepEqual(codes(buggy), ['ATT002@8']);
    assert.match(buggy[0].message, /`input_ids\.eq\(pad_id\)`|input_ids == pad_id|eq/);
    assert.match(buggy[0].message, /utils\.py:5/);
    assert.deepEqual(
      buggy[0].related?.filter((r) => r.path !== undefined),
      [
        {
          path: 'utils.py',
          line: 5,
          column: 11,
          message: 'the mask is built in `make_pad_mask` (utils.py:5)',
          messageParts: { template: 'the mask is built in {0} ({1})', args: ['`make_pad_mask`', 'utils.py:5'] },
        },
      ],
    );
    assert.deepEqual(l.lintPython(SDPA_CALLER('from utils import make_keep_mask', 'make_keep_mask(input_ids)'), { path: 'model.py' }), []);
  });

  it('a tuple-returning helper in another file, unpacked at the call site', async () => {
    const helpers = (cmp: string) => `def masks_and_lengths(input_ids, pad_id=0):
    pad = input_ids ${cmp} pad_id
    return pad[:, None, None, :], pad.sum(-1)
`;
    const model = SDPA_CALLER('from .data import masks_and_lengths', 'masks_and_lengths(input_ids)[0]').replace(
      '    mask = masks_and_lengths(input_ids)[0]\n',
      '    mask, lengths = masks_and_lengths(input_ids)\n',
    );
    const buggy = new MemoryWorkspace({ 'pkg/data.py': helpers('=='), 'pkg/model.py': model });
    const fixed = new MemoryWorkspace({ 'pkg/data.py': helpers('!='), 'pkg/model.py': model });
    const fs = (await workspaceLinter(buggy)).lintPython(model, { path: 'pkg/model.py' });
    assert.deepEqual(codes(fs), ['ATT002@8']);
    assert.equal(fs[0].related?.find((r) => r.path !== undefined)?.path, 'pkg/data.py');
    assert.deepEqual((await workspaceLinter(fixed)).lintPython(model, { path: 'pkg/model.py' }), []);
  });

  it('a class from another file: its method builds the mask from an attribute set in __init__', async () => {
    const layers = (region: string) => `import torch
import torch.nn as nn


class CausalMask(nn.Module):
    def __init__(self, block_size):
        super().__init__()
        self.register_buffer("bias", torch.${region}(torch.ones(block_size, block_size, dtype=torch.bool)${region === 'triu' ? ', diagonal=1' : ''}))

    def slice(self, T):
        return self.bias[:T, :T]
`;
    const model = `import torch.nn as nn
import torch.nn.functional as F
from .layers import CausalMask


class Block(nn.Module):
    def __init__(self, block_size):
        super().__init__()
        self.causal = CausalMask(block_size)

    def forward(self, q, k, v):
        T = q.size(-2)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.causal.slice(T))
`;
    const buggy = new MemoryWorkspace({ 'nets/layers.py': layers('triu'), 'nets/model.py': model });
    const fixed = new MemoryWorkspace({ 'nets/layers.py': layers('tril'), 'nets/model.py': model });
    const fs = (await workspaceLinter(buggy)).lintPython(model, { path: 'nets/model.py' });
    assert.deepEqual(codes(fs), ['ATT002@13']);
    assert.match(fs[0].message, /nets\/layers\.py:8/);
    assert.deepEqual((await workspaceLinter(fixed)).lintPython(model, { path: 'nets/model.py' }), []);
  });
});

describe('workspace: where a mask from another file was built', () => {
  it("each item of a helper's tuple is named by the line that built it, not by the return", async () => {
    const masks = `import torch


def make_masks(ids, pad_id, T):
    pad = ids.eq(pad_id)[:, None, None, :]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    return pad, future
`;
    const model = `import torch.nn.functional as F
from masks import make_masks


def attend(q, k, v, ids, pad_id):
    pad, future = make_masks(ids, pad_id, q.size(-2))
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=pad)
    return F.scaled_dot_product_attention(a, k, v, attn_mask=future)
`;
    const fs = (await workspaceLinter(new MemoryWorkspace({ 'masks.py': masks, 'model.py': model }))).lintPython(model, { path: 'model.py' });
    assert.deepEqual(codes(fs), ['ATT002@7', 'ATT002@8']);
    assert.deepEqual(
      fs.map((f) => f.related?.filter((r) => r.path === 'masks.py').map((r) => `${r.line}:${r.column}`)),
      [['5:11'], ['6:14']],
    );
  });
});

describe('workspace: attention scores formed in another file', () => {
  const UTILS = `import math


def scores_of(q, k):
    return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))


def unscaled(query, key):
    return query @ key.transpose(-2, -1)
`;
  const model = (helper: string, dim: number) => `import torch
from utils import ${helper}


def attend(q, k, v):
    w = torch.softmax(${helper}(q, k), dim=${dim})
    return w @ v
`;

  it('a scores helper in utils.py, softmax in model.py: over the queries buggy (names utils.py), over the keys fixed', async () => {
    const ws = new MemoryWorkspace({ 'utils.py': UTILS, 'model.py': '' });
    const l = await workspaceLinter(ws);
    const fs = l.lintPython(model('scores_of', -2), { path: 'model.py' });
    assert.deepEqual(codes(fs), ['ATT001@6']);
    assert.match(fs[0].message, /formed in `scores_of`, utils\.py:5/);
    assert.deepEqual(
      fs[0].related?.filter((r) => r.path !== undefined).map((r) => [r.path, r.line]),
      [['utils.py', 5]],
    );
    assert.deepEqual(l.lintPython(model('scores_of', -1), { path: 'model.py' }), []);
    // The weights returned (no product with the values here): only the helper's scores say where the keys are.
    const weightsOnly = model('scores_of', -2).replace('return w @ v', 'return w');
    assert.deepEqual(codes(l.lintPython(weightsOnly, { path: 'model.py' })), ['ATT001@6']);
    assert.deepEqual((await createLinter(grammar())).lintPython(weightsOnly), [], 'alone, the file has no evidence of what the helper returns');
  });

  it('the steps of a helper of another file cross with its scores: unscaled there is unscaled here (xfops31), scaled is scaled', async () => {
    // Until session 31 every step there became unknown; the helper's body is in view, and in one file the same code
    // is reported (ATT003), so the steps it shows cross (scales of known form, masks; anything else stays unknown).
    const ws = new MemoryWorkspace({ 'utils.py': UTILS, 'model.py': '' });
    const l = await workspaceLinter(ws);
    assert.deepEqual(codes(l.lintPython(model('unscaled', -1), { path: 'model.py' })), ['ATT003@6']);
    assert.deepEqual(l.lintPython(model('scores_of', -1), { path: 'model.py' }), []);
  });
});

describe('workspace: half precision set by the file that imports this one', () => {
  const model = (fill: string) => `import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        scores = scores.masked_fill(mask == 0, ${fill})
        return torch.softmax(scores, dim=-1) @ v
`;
  const trainer = (importLine: string) => `import torch
${importLine}

model = Attention().cuda()
scaler = torch.cuda.amp.GradScaler()
with torch.autocast("cuda"):
    out = model(q, k, v, mask)
`;

  it('a -1e9 fill in a model that a trainer runs under AMP: buggy (names the trainer), finfo fill fixed', async () => {
    const ws = new MemoryWorkspace({ 'nets/model.py': model('-1e9'), 'train.py': trainer('from nets.model import Attention'), 'nets/__init__.py': '' });
    const l = await workspaceLinter(ws);
    const fs = l.lintPython(model('-1e9'), { path: 'nets/model.py' });
    assert.deepEqual(codes(fs), ['ATT007@8']);
    assert.match(fs[0].message, /this file runs in half precision \(set at train\.py:5, in a file that imports it\)/);
    assert.deepEqual(
      fs[0].related?.filter((r) => r.path !== undefined).map((r) => [r.path, r.line]),
      [['train.py', 5]],
    );
    assert.ok(l.workspaceDependencies('nets/model.py').includes('train.py'));
    assert.deepEqual(l.lintPython(model('torch.finfo(scores.dtype).min'), { path: 'nets/model.py' }), []);
  });

  it('sees an edit of the trainer made after the editor closed and reopened it (its document versions start again)', async () => {
    const ws = new EditorWorkspace({ 'model.py': model('-1e9'), 'train.py': trainer('from model import Attention') });
    const l = await workspaceLinter(ws);
    const lint = () => codes(l.lintPython(model('-1e9'), { path: 'model.py' }));
    const fp32 = 'from model import Attention\nmodel = Attention()\n';
    ws.open('train.py'); // version 1: the text on disk
    assert.deepEqual(lint(), ['ATT007@8']);
    ws.edit('train.py', fp32); // version 2: no half precision
    assert.deepEqual(lint(), []);
    ws.close('train.py'); // unsaved: the disk's half-precision trainer again
    l.invalidateWorkspaceFile('train.py');
    ws.open('train.py'); // version 1 again
    ws.edit('train.py', trainer('from model import Attention').replace('model(q, k, v, mask)', 'model(q, k, v, mask=mask)')); // version 2 again, other text
    assert.deepEqual(lint(), ['ATT007@8'], 'the facts of the earlier version 2 are not reused');
  });

  it('through a file between (train.py imports net.py, which imports the model): names the chain, not a direct import', async () => {
    const net = 'from model import Attention\n\n\ndef build():\n    return Attention()\n';
    const ws = new MemoryWorkspace({ 'model.py': model('-1e9'), 'net.py': net, 'train.py': trainer('from net import build\nAttention = build') });
    const fs = (await workspaceLinter(ws)).lintPython(model('-1e9'), { path: 'model.py' });
    assert.deepEqual(codes(fs), ['ATT007@8']);
    assert.match(fs[0].message, /this file runs in half precision \(set at train\.py:6, in a file that imports it through net\.py\)/);
  });

  it('silent when no file importing the model runs in half precision, or the half-precision file does not import it', async () => {
    const fp32 = new MemoryWorkspace({ 'model.py': model('-1e9'), 'train.py': 'from model import Attention\nmodel = Attention()\n' });
    assert.deepEqual((await workspaceLinter(fp32)).lintPython(model('-1e9'), { path: 'model.py' }), []);
    const other = new MemoryWorkspace({ 'model.py': model('-1e9'), 'train.py': trainer('from other import Attention'), 'other.py': '' });
    assert.deepEqual((await workspaceLinter(other)).lintPython(model('-1e9'), { path: 'model.py' }), []);
  });
});

describe('workspace: a helper whose callers in the importing files scale its queries', () => {
  const helper = `import torch


def attention(q, k, v, mask=None):
    scores = torch.matmul(q, k.transpose(-2, -1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.matmul(weights, v), weights
`;
  const layer = (call: string) => `import torch.nn as nn

from .functional import attention


class MultiHead(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        out, _ = ${call}
        return out.transpose(1, 2).reshape(B, T, C)
`;

  it('unscaled q passed from layers.py: the helper is reported; q * self.scale passed: silent, and layers.py is a dependency', async () => {
    const buggy = new MemoryWorkspace({ 'net/functional.py': helper, 'net/layers.py': layer('attention(q, k, v, mask)'), 'net/__init__.py': '' });
    assert.deepEqual(codes((await workspaceLinter(buggy)).lintPython(helper, { path: 'net/functional.py' })), ['ATT003@8']);
    const fixed = new MemoryWorkspace({ 'net/functional.py': helper, 'net/layers.py': layer('attention(q * self.scale, k, v, mask)'), 'net/__init__.py': '' });
    const l = await workspaceLinter(fixed);
    assert.deepEqual(l.lintPython(helper, { path: 'net/functional.py' }), []);
    assert.ok(l.workspaceDependencies('net/functional.py').includes('net/layers.py'));
    const keyword = new MemoryWorkspace({
      'net/functional.py': helper,
      'net/layers.py': layer('attention(k=k, v=v, q=q * self.scale)'),
      'net/__init__.py': '',
    });
    assert.deepEqual((await workspaceLinter(keyword)).lintPython(helper, { path: 'net/functional.py' }), []);
  });
});

describe('workspace: queries scaled by a helper of another file', () => {
  const utils = `import math


def scale_queries(q):
    return q / math.sqrt(q.size(-1))
`;
  const model = (call: string) => `import torch.nn as nn
import torch.nn.functional as F

from .utils import scale_queries


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q = scale_queries(q)
        return ${call}
`;

  it('then given to SDPA with its default scale: scaled twice (buggy); with scale=1.0: silent (fixed)', async () => {
    const files = (call: string) => new MemoryWorkspace({ 'pkg/utils.py': utils, 'pkg/model.py': model(call), 'pkg/__init__.py': '' });
    const buggy = model('F.scaled_dot_product_attention(q, k, v, is_causal=True)');
    const found = (await workspaceLinter(files('F.scaled_dot_product_attention(q, k, v, is_causal=True)'))).lintPython(buggy, { path: 'pkg/model.py' });
    assert.deepEqual(codes(found), ['ATT004@17']);
    assert.match(found[0].message, /scale_queries\(q\)/);
    const fixed = model('F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0)');
    assert.deepEqual(
      (await workspaceLinter(files('F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0)'))).lintPython(fixed, { path: 'pkg/model.py' }),
      [],
    );
  });
});

describe('workspace: a KV cache attached by the file that imports this one', () => {
  const MODEL = `import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self):
        self.k = None
        self.v = None

    def update(self, k, v):
        if self.k is not None:
            k = torch.cat([self.k, k], dim=-2)
            v = torch.cat([self.v, v], dim=-2)
        self.k, self.v = k, v
        return k, v


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_qkv = nn.Linear(dim, 3 * dim)
        self.cache = None

    def forward(self, x):
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        if self.cache is not None:
            k, v = self.cache.update(k, v)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`;
  const GENERATE = `import torch
from model import KVCache, SelfAttention

layer = SelfAttention(64)
layer.cache = KVCache()
`;

  /** The workspace, counting the reads of each file. */
  class CountedWorkspace extends MemoryWorkspace {
    readonly readsOf = new Map<string, number>();
    override read(path: string): string | undefined {
      this.readsOf.set(path, (this.readsOf.get(path) ?? 0) + 1);
      return super.read(path);
    }
  }

  it('is_causal=True on the cache generate.py attaches: buggy, naming where; generate.py read once per version, not per lint', async () => {
    const ws = new CountedWorkspace({ 'model.py': MODEL, 'generate.py': GENERATE });
    const l = await workspaceLinter(ws);
    const lint = (): Finding[] => l.lintPython(MODEL, { path: 'model.py' });
    const first = lint();
    assert.deepEqual(codes(first), ['ATT008@29']);
    assert.ok(first[0].related?.some((r) => r.path === 'generate.py' && r.line === 5));
    const readsAfterFirst = ws.readsOf.get('generate.py') ?? 0;
    assert.deepEqual(lint(), first);
    assert.equal(ws.readsOf.get('generate.py') ?? 0, readsAfterFirst, 'the second lint reads nothing of generate.py again');
    // An edit of generate.py (a new version) is read again: without the attachment the cache stays None here.
    ws.set('generate.py', GENERATE.replace('layer.cache = KVCache()', 'y = layer(torch.randn(1, 8, 64))'));
    assert.deepEqual(lint(), []);
    assert.ok((ws.readsOf.get('generate.py') ?? 0) > readsAfterFirst);
  });
});
