// ATT002 and ATT006 over the layouts real projects use: the mask is built in one file (a helper re-exported by a
// package's __init__.py, reached by relative imports one and two levels up, through `import pkg.utils as U`, in a
// src/ layout, a static method, a mixin's method, a Dataset's __getitem__ or a collate_fn) and used in another
// (nn.MultiheadAttention's key_padding_mask, SDPA's boolean attn_mask, masked_fill with -inf), handed on through a
// model's forward, a base class's forward, a training loop over a DataLoader. Every project is linted as a
// workspace, each file in turn, the way the CLI lints a directory. In each cell the correct form gives no finding in
// any file; the inverted one (the inversion once in the builder's file, once in the consumer's) gives exactly one, in
// the consumer's file (ATT002: at the mask argument), with a related location in the builder's file; unless the cell
// is listed below as one the linter cannot decide yet (silent on both forms).
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

type Meaning = 'keep' | 'ignore';
type Inversion = 'none' | 'builder' | 'consumer';

interface Consumer {
  readonly name: string;
  /** What the API reads True as. */
  readonly expects: Meaning;
  /** A torch.nn.Module `Block` whose forward(x, mask) gives `mask` (the text `m`, possibly inverted) to the API. */
  block(m: string): string;
}

const consumers: readonly Consumer[] = [
  {
    name: 'key_padding_mask',
    expects: 'ignore',
    block: (m) => `class Block(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, mask):
        # x: (B, S, D), mask: (B, S)
        out, _ = self.attn(x, x, x, key_padding_mask=${m})
        return out
`,
  },
  {
    name: 'sdpa attn_mask',
    expects: 'keep',
    block: (m) => `class Block(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads

    def forward(self, x, mask):
        # x: (B, S, D) -> q, k, v: (B, H, S, D/H); mask: (B, S) -> (B, 1, 1, S)
        b, s, d = x.shape
        q = k = v = x.view(b, s, self.heads, d // self.heads).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=${m}[:, None, None, :])
        return out.transpose(1, 2).reshape(b, s, d)
`,
  },
  {
    name: 'masked_fill -inf',
    expects: 'ignore',
    block: (m) => `class Block(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask):
        # x: (B, S, D), mask: (B, S) -> scores (B, S, S)
        scores = x @ x.transpose(-2, -1) / x.size(-1) ** 0.5
        scores = scores.masked_fill(${m}[:, None, :], float("-inf"))
        return self.proj(torch.softmax(scores, dim=-1) @ x)
`,
  },
];

const HEAD = 'import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n';
const opposite = (m: Meaning): Meaning => (m === 'keep' ? 'ignore' : 'keep');
/** A comparison of token ids with the pad id that is True at the positions of `meaning`. */
const cmp = (meaning: Meaning, ids = 'ids', pad = 'pad_id'): string => `${ids}.${meaning === 'ignore' ? 'eq' : 'ne'}(${pad})`;

interface Project {
  readonly files: Record<string, string>;
  /** The file whose API call receives the mask (where ATT002 reports). */
  readonly consumerFile: string;
  /** The file that builds the mask (a related location). */
  readonly builderFile: string;
}

interface Layout {
  readonly name: string;
  /** The project, its builder building `built`, its consumer giving the API the text `m`. */
  project(built: Meaning, m: string, u: Consumer): Project;
}

const model = (imports: string, maskExpr: string, base = 'nn.Module', extraInit = '') => `${HEAD}${imports}


class Encoder(${base}):
    def __init__(self, vocab=1000, dim=64, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, dim)
        self.block = Block(dim)${extraInit}

    def forward(self, ids):
        pad_id = self.pad_id
        mask = ${maskExpr}
        return self.block(self.emb(ids), mask)
`;
const helper = (built: Meaning, name = 'make_pad_mask') => `import torch


def ${name}(ids, pad_id=0):
    # ids: (B, S) -> (B, S) bool
    return ${cmp(built)}
`;
const layers = (u: Consumer, m: string) => `${HEAD}${u.block(m)}`;

const layouts: readonly Layout[] = [
  {
    name: '__init__.py re-exports the helper (from .masks import make_pad_mask)',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': 'from .masks import make_pad_mask\n',
        'textenc/masks.py': helper(built),
        'textenc/layers.py': layers(u, m),
        'model.py': model('from textenc import make_pad_mask\nfrom textenc.layers import Block', 'make_pad_mask(ids, pad_id)'),
      },
      consumerFile: 'textenc/layers.py',
      builderFile: 'textenc/masks.py',
    }),
  },
  {
    name: 'relative import from a sibling module (from .masks import ...)',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/masks.py': helper(built),
        'textenc/model.py': `${model('from .masks import make_pad_mask', 'make_pad_mask(ids, pad_id)')}\n\n${u.block(m)}`,
      },
      consumerFile: 'textenc/model.py',
      builderFile: 'textenc/masks.py',
    }),
  },
  {
    name: 'relative import one level up (from ..utils.masking import ...)',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/utils/__init__.py': '',
        'textenc/utils/masking.py': helper(built),
        'textenc/models/__init__.py': '',
        'textenc/models/layers.py': layers(u, m),
        'textenc/models/encoder.py': model('from ..utils.masking import make_pad_mask\nfrom .layers import Block', 'make_pad_mask(ids, pad_id)'),
      },
      consumerFile: 'textenc/models/layers.py',
      builderFile: 'textenc/utils/masking.py',
    }),
  },
  {
    name: 'relative import two levels up (from ...utils.masking import ...)',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/utils/__init__.py': '',
        'textenc/utils/masking.py': helper(built),
        'textenc/models/__init__.py': '',
        'textenc/models/encoders/__init__.py': '',
        'textenc/models/encoders/encoder.py': `${model('from ...utils.masking import make_pad_mask', 'make_pad_mask(ids, pad_id)')}\n\n${u.block(m)}`,
      },
      consumerFile: 'textenc/models/encoders/encoder.py',
      builderFile: 'textenc/utils/masking.py',
    }),
  },
  {
    name: 'import textenc.utils as U, then U.make_pad_mask(...)',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/utils.py': helper(built),
        'textenc/layers.py': layers(u, m),
        'model.py': model('import textenc.utils as U\nfrom textenc.layers import Block', 'U.make_pad_mask(ids, pad_id)'),
      },
      consumerFile: 'textenc/layers.py',
      builderFile: 'textenc/utils.py',
    }),
  },
  {
    name: 'src/ layout with absolute imports',
    project: (built, m, u) => ({
      files: {
        'src/textenc/__init__.py': '',
        'src/textenc/masks.py': helper(built),
        'src/textenc/layers.py': layers(u, m),
        'src/textenc/model.py': model('from textenc.masks import make_pad_mask\nfrom textenc.layers import Block', 'make_pad_mask(ids, pad_id)'),
      },
      consumerFile: 'src/textenc/layers.py',
      builderFile: 'src/textenc/masks.py',
    }),
  },
  {
    name: 'a script at the root builds the mask and calls the model',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/masks.py': helper(built),
        'textenc/model.py': `${HEAD}class Encoder(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.block = Block(dim)

    def forward(self, ids, mask):
        return self.block(self.emb(ids), mask)


${u.block(m)}`,
        'train.py': `import torch

from textenc.masks import make_pad_mask
from textenc.model import Encoder

model = Encoder()
ids = torch.randint(1, 1000, (8, 32))
ids[:, 20:] = 0
out = model(ids, make_pad_mask(ids, 0))
`,
      },
      consumerFile: 'textenc/model.py',
      builderFile: 'textenc/masks.py',
    }),
  },
  {
    name: "the base class's forward applies the mask, the subclass in another file builds it",
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/base.py': layers(u, m).replace('class Block(nn.Module)', 'class BaseBlock(nn.Module)'),
        'textenc/model.py': `${HEAD}from .base import BaseBlock


class PaddedBlock(BaseBlock):
    def __init__(self, dim=64, pad_id=0):
        super().__init__(dim)
        self.pad_id = pad_id
        self.emb = nn.Embedding(1000, dim)

    def forward(self, ids):
        # ids: (B, S) -> mask (B, S)
        mask = ${cmp(built, 'ids', 'self.pad_id')}
        return super().forward(self.emb(ids), mask)
`,
      },
      consumerFile: 'textenc/base.py',
      builderFile: 'textenc/model.py',
    }),
  },
  {
    name: 'a @staticmethod helper of a class in another file',
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/masks.py': `import torch


class Masks:
    @staticmethod
    def padding(ids, pad_id=0):
        # ids: (B, S) -> (B, S) bool
        return ${cmp(built)}
`,
        'textenc/model.py': `${model('from .masks import Masks', 'Masks.padding(ids, pad_id)')}\n\n${u.block(m)}`,
      },
      consumerFile: 'textenc/model.py',
      builderFile: 'textenc/masks.py',
    }),
  },
  {
    name: "a mixin's method in another file builds the mask",
    project: (built, m, u) => ({
      files: {
        'textenc/__init__.py': '',
        'textenc/mixins.py': `class PaddingMaskMixin:
    pad_id = 0

    def padding_mask(self, ids):
        # ids: (B, S) -> (B, S) bool
        return ${cmp(built, 'ids', 'self.pad_id')}
`,
        'textenc/model.py': `${model('from .mixins import PaddingMaskMixin', 'self.padding_mask(ids)', 'PaddingMaskMixin, nn.Module')}\n\n${u.block(m)}`,
      },
      consumerFile: 'textenc/model.py',
      builderFile: 'textenc/mixins.py',
    }),
  },
];

/** The data paths: the mask built in data.py, the loop in train.py, the model in model.py, the layer in layers.py. */
interface DataPath {
  readonly name: string;
  data(built: Meaning): string;
  loop: string;
}

const dataPaths: readonly DataPath[] = [
  {
    name: "Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask'])",
    data: (built) => `import torch
from torch.utils.data import Dataset


class TokenDataset(Dataset):
    def __init__(self, seqs, pad_id=0):
        self.seqs = seqs
        self.pad_id = pad_id

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        ids = self.seqs[i]
        return {"ids": ids, "mask": ${cmp(built, 'ids', 'self.pad_id')}}
`,
    loop: `loader = DataLoader(TokenDataset(seqs), batch_size=8)
for batch in loader:
    out = model(batch["ids"], batch["mask"])`,
  },
  {
    name: 'a collate_fn returns a dict; batch = next(iter(loader)); model(**batch)',
    data: (built) => `import torch
from torch.nn.utils.rnn import pad_sequence


def collate(seqs, pad_id=0):
    ids = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    return {"ids": ids, "mask": ${cmp(built)}}
`,
    loop: `loader = DataLoader(seqs, batch_size=8, collate_fn=collate)
batch = next(iter(loader))
out = model(**batch)`,
  },
  {
    name: 'a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask)',
    data: (built) => `import torch
from torch.nn.utils.rnn import pad_sequence


def collate(seqs, pad_id=0):
    ids = pad_sequence(seqs, batch_first=True, padding_value=pad_id)
    mask = ${cmp(built)}
    return ids, mask
`,
    loop: `loader = DataLoader(seqs, batch_size=8, collate_fn=collate)
for ids, mask in loader:
    out = model(ids, mask)`,
  },
];

const dataLayouts: readonly Layout[] = dataPaths.map((d) => ({
  name: `data path: ${d.name}`,
  project: (built, m, u) => ({
    files: {
      'data.py': d.data(built),
      'layers.py': layers(u, m),
      'model.py': `${HEAD}from layers import Block


class Encoder(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.block = Block(dim)

    def forward(self, ids, mask):
        return self.block(self.emb(ids), mask)
`,
      'train.py': `import torch
from torch.utils.data import DataLoader

from data import ${d.data('keep').includes('class TokenDataset') ? 'TokenDataset' : 'collate'}
from model import Encoder

seqs = [torch.randint(1, 1000, (n,)) for n in (12, 30, 7)]
model = Encoder()
${d.loop}
`,
    },
    consumerFile: 'layers.py',
    builderFile: 'data.py',
  }),
}));

interface Cell {
  readonly id: string;
  readonly layout: Layout;
  readonly consumer: Consumer;
  readonly inversion: Exclude<Inversion, 'none'>;
}

function cellsOf(ls: readonly Layout[]): Cell[] {
  return ls.flatMap((layout) =>
    consumers.flatMap((consumer) =>
      (['builder', 'consumer'] as const).map((inversion) => ({
        id: `${layout.name} × ${consumer.name} × inverted in the ${inversion}'s file`,
        layout,
        consumer,
        inversion,
      })),
    ),
  );
}

function projectOf(c: Cell, inv: Inversion): Project {
  const u = c.consumer;
  if (inv === 'builder') return c.layout.project(opposite(u.expects), 'mask', u);
  if (inv === 'consumer') return c.layout.project(u.expects, '(~mask)', u);
  return c.layout.project(u.expects, 'mask', u);
}

interface Found {
  readonly path: string;
  readonly finding: Finding;
}

async function lintProject(p: Project, code: string): Promise<Found[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(p.files) });
  return Object.keys(p.files)
    .sort()
    .flatMap((path) =>
      l
        .lintPython(p.files[path] ?? '', { path })
        .filter((f) => f.code === code || f.code === 'ATT000')
        .map((finding) => ({ path, finding })),
    );
}

const show = (fs: readonly Found[]): string => fs.map((f) => `${f.path}:${f.finding.line} ${f.finding.code} ${f.finding.message}`).join('\n');
const text = (p: Project): string =>
  Object.entries(p.files)
    .map(([path, t]) => `# ${path}\n${t}`)
    .join('\n');

type Outcome = 'decides' | 'silent' | 'no related location in the builder file' | 'reported elsewhere' | 'correct form reported' | 'several findings';

/** What the linter does with the cell: decides it (the target), or one of the ways it falls short. */
async function outcomeOf(cell: Cell, code: string): Promise<{ outcome: Outcome; detail: string }> {
  const correct = projectOf(cell, 'none');
  const ok = await lintProject(correct, code);
  if (ok.length > 0) return { outcome: 'correct form reported', detail: `${show(ok)}\n${text(correct)}` };
  const bad = projectOf(cell, cell.inversion);
  const found = await lintProject(bad, code);
  const detail = `${show(found)}\n${text(bad)}`;
  if (found.length === 0) return { outcome: 'silent', detail };
  if (found.length > 1) return { outcome: 'several findings', detail };
  const [f] = found;
  if (f?.path !== bad.consumerFile) return { outcome: 'reported elsewhere', detail };
  const relatedPaths = (f.finding.related ?? []).map((r) => r.path ?? f.path);
  if (!relatedPaths.includes(bad.builderFile))
    return { outcome: 'no related location in the builder file', detail: `${JSON.stringify(f.finding.related)}\n${detail}` };
  return { outcome: 'decides', detail };
}

/**
 * Today's outcome of the cells that do not decide yet, by id (every other cell decides). 'silent': no evidence
 * reaches the use; 'no related location in the builder file': reported at the use, but the related locations stop at
 * the call in the file between (no cell today: a mask keeps where it was built as it crosses files, MaskInfo.builtIn).
 */
const TODAY_ATT002: ReadonlyMap<string, Outcome> = new Map<string, Outcome>([
  ["the base class's forward applies the mask, the subclass in another file builds it × key_padding_mask × inverted in the builder's file", 'silent'],
  ["the base class's forward applies the mask, the subclass in another file builds it × key_padding_mask × inverted in the consumer's file", 'silent'],
  ["the base class's forward applies the mask, the subclass in another file builds it × sdpa attn_mask × inverted in the builder's file", 'silent'],
  ["the base class's forward applies the mask, the subclass in another file builds it × sdpa attn_mask × inverted in the consumer's file", 'silent'],
  ["the base class's forward applies the mask, the subclass in another file builds it × masked_fill -inf × inverted in the builder's file", 'silent'],
  ["the base class's forward applies the mask, the subclass in another file builds it × masked_fill -inf × inverted in the consumer's file", 'silent'],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × key_padding_mask × inverted in the builder's file",
    'silent',
  ],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × key_padding_mask × inverted in the consumer's file",
    'silent',
  ],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × sdpa attn_mask × inverted in the builder's file",
    'silent',
  ],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × sdpa attn_mask × inverted in the consumer's file",
    'silent',
  ],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × masked_fill -inf × inverted in the builder's file",
    'silent',
  ],
  [
    "data path: Dataset.__getitem__ returns a dict; for batch in loader: model(batch['ids'], batch['mask']) × masked_fill -inf × inverted in the consumer's file",
    'silent',
  ],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × key_padding_mask × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × key_padding_mask × inverted in the consumer's file", 'silent'],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × sdpa attn_mask × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × sdpa attn_mask × inverted in the consumer's file", 'silent'],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × masked_fill -inf × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a dict; batch = next(iter(loader)); model(**batch) × masked_fill -inf × inverted in the consumer's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × key_padding_mask × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × key_padding_mask × inverted in the consumer's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × sdpa attn_mask × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × sdpa attn_mask × inverted in the consumer's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × masked_fill -inf × inverted in the builder's file", 'silent'],
  ["data path: a collate_fn returns a tuple; for ids, mask in loader: model(ids, mask) × masked_fill -inf × inverted in the consumer's file", 'silent'],
]);

describe('ATT002 mask layout matrix: project layout × consumer × where the inversion is', () => {
  const all = cellsOf([...layouts, ...dataLayouts]);

  it('has cells of every layout and data path, and most of them decide', () => {
    assert.equal(all.length, (layouts.length + dataLayouts.length) * consumers.length * 2);
    assert.ok(
      [...TODAY_ATT002.keys()].every((id) => all.some((c) => c.id === id)),
      'a listed id names no cell',
    );
  });

  for (const cell of all) {
    it(cell.id, async () => {
      const { outcome, detail } = await outcomeOf(cell, 'ATT002');
      if (process.env.MATRIX_PRINT) console.log(`MATRIX\t${cell.id}\t${outcome}`);
      assert.equal(outcome, TODAY_ATT002.get(cell.id) ?? 'decides', detail);
    });
  }
});
