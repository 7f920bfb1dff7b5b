// A project-layout matrix for precision, scales and caches (ATT007, ATT004, ATT005, ATT008): small projects of
// 2-5 files, linted as a workspace file by file (as the CLI lints a directory), whose evidence is in another file
// of the project, along the paths real projects use: a package whose __init__.py re-exports, relative imports one
// and two levels up, `import pkg.mod as M`, a src/ layout, a root script importing the package, a class subclassed
// in another file, a config in config.py. Each project comes as a buggy form and its correct twin (bfloat16, the
// finfo fill, float32; the head width; keys transposed by the helper; a bottom-right mask).
// `today` records the cells today's linter decides wrongly (the findings it reports, as `path: line text`; [] =
// silent), so each fix removes the `today` of the cells it changes.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

type Files = Record<string, string>;

interface Cell {
  readonly id: string;
  readonly rule: 'ATT004' | 'ATT005' | 'ATT007' | 'ATT008';
  /** The project: buggy form. */
  readonly buggy: Files;
  /** The same project, fixed: no finding of the rule in any file. */
  readonly fixed: Files;
  /** Where the finding belongs: path and a text on its line. */
  readonly at: { readonly path: string; readonly text: string };
  /** The file the other evidence is in: a related location of the finding. */
  readonly relatedIn: string;
  /** Today's wrong decision on the buggy form: `path: line text` of what is reported ([] = silent). */
  readonly today?: readonly string[];
}

type Located = Finding & { readonly path: string };

async function lintProject(files: Files, rule: string): Promise<Located[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return Object.keys(files)
    .filter((p) => p.endsWith('.py'))
    .flatMap((p) => l.lintPython(files[p] ?? '', { path: p }).map((f) => ({ ...f, path: p })))
    .filter((f) => f.code === rule);
}

const lineText = (files: Files, path: string, line: number): string => (files[path] ?? '').split('\n')[line - 1]?.trim() ?? '';
const shown = (files: Files, fs: readonly Located[]): string[] => fs.map((f) => `${f.path}: ${lineText(files, f.path, f.line)}`);

// ---------------------------------------------------------------------------------------------------------------
// ATT007: the fill in the model, the precision in another file.

/** An attention module with a masked fill; `fill` is the value written into masked positions. */
const attentionModule = (fill: string, cls = 'Attention') => `import torch
import torch.nn as nn


class ${cls}(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, mask):
        B, T, C = x.shape
        # (3, B, H, T, d_head)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) * self.d_head ** -0.5
        scores = scores.masked_fill(mask == 0, ${fill})
        y = scores.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, C))
`;

const FILL_LINE = 'scores = scores.masked_fill(mask == 0,';
const FINFO = 'torch.finfo(scores.dtype).min';

interface PrecisionCell {
  readonly id: string;
  /** Files given the fill. */
  readonly project: (fill: string) => Files;
  readonly at: string;
  readonly relatedIn: string;
  /** The fixed twin, when it is not the finfo fill: a project of the same fill that is right. */
  readonly twin?: (fill: string) => Files;
  readonly fill?: string;
  readonly today?: readonly string[];
}

const trainLoop = `
for x, mask, y in loader:
    loss = model(x, mask).pow(2).mean()
    loss.backward()
`;

const PRECISION_CELLS: readonly PrecisionCell[] = [
  {
    id: 'root train.py calls model.half(), model in a package (from pkg.model import)',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'train.py': `import torch\n\nfrom pkg.model import Attention\n\nmodel = Attention(512, 8).cuda().half()\n${trainLoop}`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'train.py',
  },
  {
    id: '__init__.py re-exports the class; train.py: from pkg import Attention; .to(torch.float16)',
    project: (fill) => ({
      'pkg/__init__.py': 'from .model import Attention\n',
      'pkg/model.py': attentionModule(fill),
      'train.py': `import torch\n\nfrom pkg import Attention\n\nmodel = Attention(512, 8).to("cuda", torch.float16)\n${trainLoop}`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'train.py',
  },
  {
    id: 'generate.py: import pkg.model as M, torch.autocast("cuda", dtype=torch.float16)',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'generate.py': `import torch\n\nimport pkg.model as M\n\nmodel = M.Attention(512, 8).cuda().eval()\nwith torch.no_grad(), torch.autocast("cuda", dtype=torch.float16):\n    y = model(torch.randn(1, 16, 512, device="cuda"), None)\n`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'generate.py',
    twin: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'generate.py': `import torch\n\nimport pkg.model as M\n\nmodel = M.Attention(512, 8).cuda().eval()\nwith torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):\n    y = model(torch.randn(1, 16, 512, device="cuda"), None)\n`,
    }),
  },
  {
    id: 'src/ layout: src/mypkg/model.py, train.py with GradScaler imports mypkg.model',
    project: (fill) => ({
      'src/mypkg/__init__.py': '',
      'src/mypkg/model.py': attentionModule(fill),
      'train.py': `import torch\n\nfrom mypkg.model import Attention\n\nmodel = Attention(512, 8).cuda()\nscaler = torch.cuda.amp.GradScaler()\nopt = torch.optim.AdamW(model.parameters())\nfor x, mask, y in loader:\n    with torch.autocast("cuda"):\n        loss = model(x, mask).pow(2).mean()\n    scaler.scale(loss).backward()\n    scaler.step(opt)\n    scaler.update()\n`,
    }),
    at: 'src/mypkg/model.py',
    relatedIn: 'train.py',
  },
  {
    id: 'Lightning: pkg/lit.py wraps the model (relative import), train.py Trainer(precision="16-mixed")',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'pkg/lit.py': `import lightning as L\nimport torch\n\nfrom .model import Attention\n\n\nclass LitModel(L.LightningModule):\n    def __init__(self):\n        super().__init__()\n        self.net = Attention(512, 8)\n\n    def training_step(self, batch, batch_idx):\n        x, mask = batch\n        return self.net(x, mask).pow(2).mean()\n\n    def configure_optimizers(self):\n        return torch.optim.AdamW(self.parameters())\n`,
      'train.py': `import lightning as L\n\nfrom pkg.lit import LitModel\n\ntrainer = L.Trainer(accelerator="gpu", precision="16-mixed", max_epochs=3)\ntrainer.fit(LitModel(), train_dataloaders=loader)\n`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'train.py',
    twin: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'pkg/lit.py': `import lightning as L\nimport torch\n\nfrom .model import Attention\n\n\nclass LitModel(L.LightningModule):\n    def __init__(self):\n        super().__init__()\n        self.net = Attention(512, 8)\n\n    def training_step(self, batch, batch_idx):\n        x, mask = batch\n        return self.net(x, mask).pow(2).mean()\n\n    def configure_optimizers(self):\n        return torch.optim.AdamW(self.parameters())\n`,
      'train.py': `import lightning as L\n\nfrom pkg.lit import LitModel\n\ntrainer = L.Trainer(accelerator="gpu", precision="bf16-mixed", max_epochs=3)\ntrainer.fit(LitModel(), train_dataloaders=loader)\n`,
    }),
  },
  {
    id: 'HF TrainingArguments(fp16=True) in train.py, model two levels down (pkg/models/layers)',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/layers/__init__.py': '',
      'pkg/layers/attention.py': attentionModule(fill),
      'pkg/models/__init__.py': '',
      'pkg/models/encoder.py': `import torch.nn as nn\n\nfrom ..layers.attention import Attention\n\n\nclass Encoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.attn = Attention(512, 8)\n\n    def forward(self, x, mask):\n        return self.attn(x, mask)\n`,
      'train.py': `from transformers import Trainer, TrainingArguments\n\nfrom pkg.models.encoder import Encoder\n\nargs = TrainingArguments("out", per_device_train_batch_size=8, fp16=True)\nTrainer(model=Encoder(), args=args, train_dataset=ds).train()\n`,
    }),
    at: 'pkg/layers/attention.py',
    relatedIn: 'train.py',
  },
  {
    id: 'DeepSpeed {"fp16": {"enabled": True}} in train.py, model imported through the package',
    project: (fill) => ({
      'pkg/__init__.py': 'from .model import Attention\n',
      'pkg/model.py': attentionModule(fill),
      'train.py': `import deepspeed\n\nfrom pkg import Attention\n\nds_config = {\n    "train_batch_size": 32,\n    "fp16": {"enabled": True},\n    "zero_optimization": {"stage": 2},\n}\nmodel = Attention(512, 8)\nengine, opt, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)\n`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'train.py',
    twin: (fill) => ({
      'pkg/__init__.py': 'from .model import Attention\n',
      'pkg/model.py': attentionModule(fill),
      'train.py': `import deepspeed\n\nfrom pkg import Attention\n\nds_config = {\n    "train_batch_size": 32,\n    "bf16": {"enabled": True},\n    "zero_optimization": {"stage": 2},\n}\nmodel = Attention(512, 8)\nengine, opt, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)\n`,
    }),
  },
  {
    id: 'base class with the fill in pkg/base.py, subclassed in pkg/model.py, train.py halves the subclass',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/base.py': attentionModule(fill, 'BaseAttention'),
      'pkg/model.py': `from .base import BaseAttention\n\n\nclass CausalAttention(BaseAttention):\n    pass\n`,
      'train.py': `import torch\n\nfrom pkg.model import CausalAttention\n\nmodel = CausalAttention(512, 8).cuda().half()\n${trainLoop}`,
    }),
    at: 'pkg/base.py',
    relatedIn: 'train.py',
  },
  {
    id: 'config.py dataclass dtype="float16" read by train.py that builds the model',
    project: (fill) => ({
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule(fill),
      'config.py': `from dataclasses import dataclass\n\n\n@dataclass\nclass TrainConfig:\n    d_model: int = 512\n    n_heads: int = 8\n    dtype: str = "float16"\n`,
      'train.py': `import torch\n\nfrom config import TrainConfig\nfrom pkg.model import Attention\n\ncfg = TrainConfig()\nmodel = Attention(cfg.d_model, cfg.n_heads).to(getattr(torch, cfg.dtype))\n`,
    }),
    at: 'pkg/model.py',
    relatedIn: 'config.py',
    // The dtype is named in config.py, which does not import the model; train.py, which does, reads it.
    today: [],
  },
];

function precisionCells(): Cell[] {
  const out: Cell[] = [];
  for (const c of PRECISION_CELLS) {
    for (const fill of [c.fill ?? '-1e9', '-1e10']) {
      out.push({
        id: `ATT007 ${c.id} [${fill}]`,
        rule: 'ATT007',
        buggy: c.project(fill),
        fixed: c.project(FINFO),
        at: { path: c.at, text: FILL_LINE },
        relatedIn: c.relatedIn,
        ...(c.today ? { today: c.today } : {}),
      });
    }
    if (c.twin) {
      // The twin of another precision: the same -1e9 fill is right there.
      out.push({
        id: `ATT007 ${c.id} [bf16 twin]`,
        rule: 'ATT007',
        buggy: c.project('-1e9'),
        fixed: c.twin('-1e9'),
        at: { path: c.at, text: FILL_LINE },
        relatedIn: c.relatedIn,
        ...(c.today ? { today: c.today } : {}),
      });
    }
  }
  // float32 everywhere: the same project without any half precision is silent.
  out.push({
    id: 'ATT007 float32 trainer: the fill is right',
    rule: 'ATT007',
    buggy: PRECISION_CELLS[0].project('-1e9'),
    fixed: {
      'pkg/__init__.py': '',
      'pkg/model.py': attentionModule('-1e9'),
      'train.py': `import torch\n\nfrom pkg.model import Attention\n\nmodel = Attention(512, 8).cuda().float()\n${trainLoop}`,
    },
    at: { path: 'pkg/model.py', text: FILL_LINE },
    relatedIn: 'train.py',
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// ATT004 / ATT005: the head split in one file, the scale or the transpose in another.

const configPy = `from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 768
    n_heads: int = 12
    dropout: float = 0.1

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads
`;

const scaledAttention = (scale: string, importLine = 'from .config import ModelConfig') => `import torch
import torch.nn as nn

${importLine}


class SelfAttention(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.head_dim
        self.scale = ${scale}
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)

    def forward(self, x):
        B, T, C = x.shape
        # (3, B, H, T, head_dim)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) * self.scale
        att = att.softmax(dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)
`;

const headsHelper = `import torch


def split_heads(x, n_heads):
    # (B, T, C) -> (B, H, T, C // H)
    B, T, C = x.shape
    return x.view(B, T, n_heads, C // n_heads).transpose(1, 2)


def split_heads_transposed(x, n_heads):
    # (B, T, C) -> (B, H, C // H, T): keys ready for q @ k
    B, T, C = x.shape
    return x.view(B, T, n_heads, C // n_heads).permute(0, 2, 3, 1)
`;

const helperAttention = (keySplit: string, importLine = 'from .heads import split_heads, split_heads_transposed') => `import math

import torch
import torch.nn as nn

${importLine}


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q = split_heads(self.q_proj(x), self.n_heads)
        k = ${keySplit}(self.k_proj(x), self.n_heads)
        v = split_heads(self.v_proj(x), self.n_heads)
        scores = torch.matmul(q, k) / math.sqrt(q.size(-1))
        w = torch.softmax(scores, dim=-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, C)
`;

function scaleCells(): Cell[] {
  const pkg = (scale: string): Files => ({ 'pkg/__init__.py': '', 'pkg/config.py': configPy, 'pkg/attention.py': scaledAttention(scale) });
  const flat = (scale: string): Files => ({ 'config.py': configPy, 'attention.py': scaledAttention(scale, 'from config import ModelConfig') });
  const helper = (split: string): Files => ({ 'pkg/__init__.py': '', 'pkg/heads.py': headsHelper, 'pkg/attention.py': helperAttention(split) });
  const helperUp = (split: string): Files => ({
    'pkg/__init__.py': '',
    'pkg/ops/__init__.py': 'from .heads import split_heads, split_heads_transposed\n',
    'pkg/ops/heads.py': headsHelper,
    'pkg/nn/__init__.py': '',
    'pkg/nn/attention.py': helperAttention(split, 'from ..ops import split_heads, split_heads_transposed'),
  });
  const helperAlias = (split: string): Files => ({
    'pkg/__init__.py': '',
    'pkg/heads.py': headsHelper,
    'pkg/attention.py': helperAttention(split, 'import pkg.heads as H')
      .replace(/= split_heads\(/g, '= H.split_heads(')
      .replace(`= ${split}(`, `= H.${split}(`),
  });
  return [
    {
      id: 'ATT004 config.py dataclass (head_dim property), pkg/attention.py scale = cfg.d_model ** -0.5',
      rule: 'ATT004',
      buggy: pkg('cfg.d_model ** -0.5'),
      fixed: pkg('cfg.head_dim ** -0.5'),
      at: { path: 'pkg/attention.py', text: 'att = (q @ k.transpose(-2, -1)) * self.scale' },
      relatedIn: 'pkg/attention.py',
    },
    {
      id: 'ATT004 root config.py, attention.py: scale = cfg.d_model ** -0.5 (fixed: (cfg.d_model // cfg.n_heads) ** -0.5)',
      rule: 'ATT004',
      buggy: flat('cfg.d_model ** -0.5'),
      fixed: flat('(cfg.d_model // cfg.n_heads) ** -0.5'),
      at: { path: 'attention.py', text: 'att = (q @ k.transpose(-2, -1)) * self.scale' },
      relatedIn: 'attention.py',
    },
    {
      id: 'ATT005 keys split by pkg/heads.py without the transpose, q @ k in pkg/attention.py',
      rule: 'ATT005',
      buggy: helper('split_heads'),
      fixed: helper('split_heads_transposed'),
      at: { path: 'pkg/attention.py', text: 'scores = torch.matmul(q, k)' },
      relatedIn: 'pkg/heads.py',
    },
    {
      id: 'ATT005 helper two levels away, re-exported by pkg/ops/__init__.py, imported with from ..ops',
      rule: 'ATT005',
      buggy: helperUp('split_heads'),
      fixed: helperUp('split_heads_transposed'),
      at: { path: 'pkg/nn/attention.py', text: 'scores = torch.matmul(q, k)' },
      relatedIn: 'pkg/ops/heads.py',
    },
    {
      id: 'ATT005 helper module imported as `import pkg.heads as H`',
      rule: 'ATT005',
      buggy: helperAlias('split_heads'),
      fixed: helperAlias('split_heads_transposed'),
      at: { path: 'pkg/attention.py', text: 'scores = torch.matmul(q, k)' },
      relatedIn: 'pkg/heads.py',
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// ATT008: the KV cache in cache.py, the attention in attention.py, the loop in generate.py, masks in masks.py.

const cachePy = `import torch


class KVCache:
    def __init__(self, batch, n_heads, max_len, head_dim, dtype=torch.float32, device="cpu"):
        # preallocated (B, H, max_len, head_dim) buffers
        self.k = torch.zeros(batch, n_heads, max_len, head_dim, dtype=dtype, device=device)
        self.v = torch.zeros(batch, n_heads, max_len, head_dim, dtype=dtype, device=device)
        self.pos = 0

    def update(self, k, v):
        T = k.size(2)
        self.k[:, :, self.pos : self.pos + T] = k
        self.v[:, :, self.pos : self.pos + T] = v
        self.pos += T
        return self.k[:, :, : self.pos], self.v[:, :, : self.pos]
`;

const masksPy = `import torch


def causal_mask(q_len, kv_len, device=None):
    # (q_len, kv_len) boolean, True = attend; aligned bottom-right so new queries see every cached key
    return torch.ones(q_len, kv_len, dtype=torch.bool, device=device).tril(diagonal=kv_len - q_len)
`;

const cachedAttention = (call: string, extraImport = '') => `import torch
import torch.nn as nn
import torch.nn.functional as F

from .cache import KVCache
${extraImport}

class Attention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.cache = None

    def forward(self, x):
        B, T, C = x.shape
        # (3, B, H, T, head_dim)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if self.cache is not None:
            k, v = self.cache.update(k, v)
        y = ${call}
        return y.transpose(1, 2).reshape(B, T, C)
`;

const generatePy = `import torch

from pkg.attention import Attention
from pkg.cache import KVCache

model = Attention(512, 8).eval()
model.cache = KVCache(1, 8, 256, 64)
tokens = torch.randn(1, 10, 512)
with torch.no_grad():
    out = model(tokens)  # prefill with the cache attached
    for _ in range(20):
        out = model(out[:, -1:])  # decode one token
`;

const modelPy = `import torch.nn as nn

from .attention import Attention


class Model(nn.Module):
    def __init__(self, d_model=512, n_heads=8, n_layers=4):
        super().__init__()
        self.blocks = nn.ModuleList([Attention(d_model, n_heads) for _ in range(n_layers)])

    def forward(self, x):
        for blk in self.blocks:
            x = x + blk(x)
        return x
`;

const generateBlocksPy = `import torch

from pkg.cache import KVCache
from pkg.model import Model

model = Model().eval()
for blk in model.blocks:
    blk.cache = KVCache(1, 8, 256, 64)
tokens = torch.randn(1, 10, 512)
with torch.no_grad():
    out = model(tokens)
    for _ in range(20):
        out = model(out[:, -1:])
`;

function cacheCells(): Cell[] {
  const project = (call: string, extraImport = ''): Files => ({
    'pkg/__init__.py': '',
    'pkg/cache.py': cachePy,
    'pkg/masks.py': masksPy,
    'pkg/attention.py': cachedAttention(call, extraImport),
    'generate.py': generatePy,
  });
  return [
    {
      id: 'ATT008 cache.update() of pkg/cache.py feeds SDPA is_causal=True; fixed: bottom-right mask from pkg/masks.py',
      rule: 'ATT008',
      buggy: project('F.scaled_dot_product_attention(q, k, v, is_causal=True)'),
      fixed: project('F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(T, k.size(2), x.device))', 'from .masks import causal_mask\n'),
      at: { path: 'pkg/attention.py', text: 'y = F.scaled_dot_product_attention(q, k, v, is_causal=True)' },
      relatedIn: 'generate.py',
    },
    {
      id: 'ATT008 no file attaches the cache (self.cache stays None): silent; generate.py attaching it: reported',
      rule: 'ATT008',
      buggy: project('F.scaled_dot_product_attention(q, k, v, is_causal=True)'),
      fixed: {
        ...project('F.scaled_dot_product_attention(q, k, v, is_causal=True)'),
        'generate.py': generatePy.replace('model.cache = KVCache(1, 8, 256, 64)\n', ''),
      },
      at: { path: 'pkg/attention.py', text: 'y = F.scaled_dot_product_attention(q, k, v, is_causal=True)' },
      relatedIn: 'generate.py',
    },
    {
      id: 'ATT008 generate.py attaches a cache to each block of pkg/model.py, which imports pkg/attention.py',
      rule: 'ATT008',
      buggy: {
        ...project('F.scaled_dot_product_attention(q, k, v, is_causal=True)'),
        'pkg/model.py': modelPy,
        'generate.py': generateBlocksPy,
      },
      fixed: {
        ...project('F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(T, k.size(2), x.device))', 'from .masks import causal_mask\n'),
        'pkg/model.py': modelPy,
        'generate.py': generateBlocksPy,
      },
      at: { path: 'pkg/attention.py', text: 'y = F.scaled_dot_product_attention(q, k, v, is_causal=True)' },
      relatedIn: 'generate.py',
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------

describe('cross-file project matrix: precision, scales, transposes and caches (ATT007, ATT004, ATT005, ATT008)', () => {
  const cells = [...precisionCells(), ...scaleCells(), ...cacheCells()];

  it('has cells for every rule, and cells that decide today', () => {
    for (const rule of ['ATT004', 'ATT005', 'ATT007', 'ATT008'])
      assert.ok(
        cells.some((c) => c.rule === rule),
        rule,
      );
    assert.ok(cells.some((c) => c.today === undefined));
  });

  for (const cell of cells) {
    it(cell.id, async () => {
      const fixed = await lintProject(cell.fixed, cell.rule);
      assert.deepEqual(shown(cell.fixed, fixed), [], 'the fixed project is reported');
      const buggy = await lintProject(cell.buggy, cell.rule);
      const found = shown(cell.buggy, buggy);
      if (cell.today) {
        assert.deepEqual(found, cell.today, 'listed as decided wrongly today, now decided otherwise (update `today`)');
        return;
      }
      assert.equal(found.length, 1, `buggy project: ${found.length} findings\n${found.join('\n')}`);
      assert.equal(buggy[0]?.path, cell.at.path);
      assert.ok(found[0]?.includes(cell.at.text), `${found[0]} is not the line of ${cell.at.text}`);
      const related = (buggy[0]?.related ?? []).map((r) => r.path ?? cell.at.path);
      assert.ok(related.includes(cell.relatedIn), `no related location in ${cell.relatedIn}: ${related.join(', ')}`);
    });
  }
});
