// Star imports read the same way both directions. The import resolution follows `from pkg.model import *`,
// `from pkg import *` through an __init__.py that star-imports (or re-exports) its submodule, and `from . import *`;
// the importers' index (`importingFiles`, which finds the files whose calls decide a mask parameter) must find the
// same files, or a model whose caller star-imports it is judged without its caller. Each layout with its buggy
// form (the caller passes a mask True at real tokens to key_padding_mask: ATT002 in the model) and its fixed form
// (True at padding: silent).
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { importingFiles } from '../../../src/lint/analysis/importers';
import { WorkspaceAnalysis } from '../../../src/lint/analysis/workspace';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

const model = `import torch
from torch import nn

__all__ = ["Encoder"]


class Encoder(nn.Module):
    def __init__(self, d_model=128, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(1000, d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, ids, pad):
        x = self.embed(ids)
        out, _ = self.attn(x, x, x, key_padding_mask=pad)
        return out
`;

const caller = (importLine: string, op: string) => `import torch
${importLine}


def run(ids):
    encoder = Encoder()
    return encoder(ids, ids ${op} 0)
`;

interface Layout {
  readonly id: string;
  readonly files: (op: string) => Record<string, string>;
}

const LAYOUTS: readonly Layout[] = [
  {
    id: 'run.py: from pkg.model import *',
    files: (op) => ({ 'pkg/__init__.py': '', 'pkg/model.py': model, 'run.py': caller('from pkg.model import *', op) }),
  },
  {
    id: 'run.py: from pkg import *, pkg/__init__.py: from .model import *',
    files: (op) => ({ 'pkg/__init__.py': 'from .model import *\n', 'pkg/model.py': model, 'run.py': caller('from pkg import *', op) }),
  },
  {
    id: 'run.py: from pkg import Encoder, pkg/__init__.py: from .model import *',
    files: (op) => ({ 'pkg/__init__.py': 'from .model import *\n', 'pkg/model.py': model, 'run.py': caller('from pkg import Encoder', op) }),
  },
  {
    id: 'pkg/run.py: from . import *, pkg/__init__.py: from .model import Encoder',
    files: (op) => ({ 'pkg/__init__.py': 'from .model import Encoder\n', 'pkg/model.py': model, 'pkg/run.py': caller('from . import *', op) }),
  },
];

describe('cross-file: star imports are read alike by the import resolution and the importers index', () => {
  for (const layout of LAYOUTS) {
    it(`${layout.id}: the caller's keep mask reaches key_padding_mask, ATT002 in the model`, async () => {
      assert.deepEqual(codes(await lint(layout.files('!='), 'pkg/model.py')), ['ATT002@15']);
    });
    it(`${layout.id}, fixed (True at padding): silent`, async () => {
      assert.deepEqual(codes(await lint(layout.files('=='), 'pkg/model.py')), []);
    });
  }

  it('importingFiles lists a star importer, and the importer of a package that star-imports the module', () => {
    const files = {
      'pkg/__init__.py': 'from .model import *\n',
      'pkg/model.py': model,
      'a.py': 'from pkg.model import *\n',
      'b.py': 'from pkg import *\n',
      'c.py': 'import os\n',
    };
    const never = (): never => {
      throw new Error('no file is parsed or analysed here');
    };
    const link = { path: 'pkg/model.py', workspace: new WorkspaceAnalysis(memoryWorkspace(files), never, never), deps: new Map(), importers: true };
    assert.deepEqual([...importingFiles(link, 8)].sort(), ['a.py', 'b.py', 'pkg/__init__.py']);
  });
});
