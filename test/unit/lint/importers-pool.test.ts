// The files that import the linted one (src/lint/analysis/importers.ts), as each of its callers asks for them:
// `importingFiles` (the calls importer-calls.ts reads: the linted file's directory and those above it, direct importers,
// star imports too, and those importing a package whose __init__.py imports it) and `importingChain` (the attributes the evaluator reads as set from outside: those directories and
// the ones beside them, through one importing file between). One small project, each caller's answer pinned.
import { strict as assert } from 'node:assert';
import { importingChain, importingFiles } from '../../../src/lint/analysis/importers';
import { WorkspaceAnalysis, type ModuleLink } from '../../../src/lint/analysis/workspace';
import { memoryWorkspace } from './helpers';

// models/attn.py is linted; models/net.py imports it, train.py imports the network, scripts/sample.py imports the
// attention module from a directory beside models/, and models/utils.py imports nothing of it.
const PROJECT: Record<string, string> = {
  'models/__init__.py': '',
  'models/attn.py': 'import torch\n\n\nclass Attention(torch.nn.Module):\n    pass\n',
  'models/net.py': 'import torch\nfrom .attn import Attention\n\n\nclass Net(torch.nn.Module):\n    pass\n',
  'models/utils.py': 'import math\n\n\ndef scale(d):\n    return 1 / math.sqrt(d)\n',
  'train.py': 'from models.net import Net\n\nmodel = Net()\n',
  'scripts/sample.py': 'from models.attn import Attention\n\nblock = Attention()\n',
};

describe('lint: the files importing the linted one, per caller', () => {
  // The importers are read as text (their import lines), never parsed nor analysed.
  const never = (): never => {
    throw new Error('no file is parsed or analysed here');
  };

  function link(files: Record<string, string>, path: string): ModuleLink {
    const workspace = new WorkspaceAnalysis(memoryWorkspace(files), never, never);
    return { path, workspace, deps: new Map(), importers: true };
  }

  it('importingFiles: direct importers in the linted file’s directory and above it, each noted as a dependency', () => {
    const l = link(PROJECT, 'models/attn.py');
    assert.deepEqual(importingFiles(l, 8), ['models/net.py']);
    assert.deepEqual([...l.deps.keys()], ['models/net.py']);
  });

  it('importingChain: beside directories too, and through one importing file between, nearest first', () => {
    const l = link(PROJECT, 'models/attn.py');
    assert.deepEqual(importingChain(l, 2, 8), ['models/net.py', 'scripts/sample.py', 'train.py']);
    assert.deepEqual([...l.deps.keys()].sort(), ['models/net.py', 'scripts/sample.py', 'train.py']);
    // One hop: the direct importers only.
    assert.deepEqual(importingChain(link(PROJECT, 'models/attn.py'), 1, 8), ['models/net.py', 'scripts/sample.py']);
  });

  it('both stop at their bound, nearest first', () => {
    assert.deepEqual(importingChain(link(PROJECT, 'models/attn.py'), 2, 2), ['models/net.py', 'scripts/sample.py']);
    // A second importer, listed after models/net.py (the workspace lists files in the order they were added).
    const files = { ...PROJECT, 'models/block.py': 'from models.attn import Attention\n' };
    assert.deepEqual(importingFiles(link(files, 'models/attn.py'), 1), ['models/net.py']);
    assert.deepEqual(importingFiles(link(files, 'models/attn.py'), 8), ['models/net.py', 'models/block.py']);
  });

  it('a file that imports nothing of the linted one is in neither answer', () => {
    const l = link(PROJECT, 'models/utils.py');
    assert.deepEqual(importingFiles(l, 8), []);
    assert.deepEqual(importingChain(l, 2, 8), []);
    assert.equal(l.deps.size, 0);
  });
});
