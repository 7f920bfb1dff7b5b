// Class learnt from the training set (test/lint-train/d, t10d-03): a single-head model whose head projects from a
// width the module fixes (`n_embd = 32` at module level, or imported from a config module) to a width the head is
// given (`nn.Linear(n_embd, head_size)`), scaled by the input's width (`B, T, C = x.shape` then `C**-0.5`), where
// every construction of the head the workspace shows passes that same width (`Head(n_embd)`: the only head is as wide
// as the embedding, so C is the head width and the scale is right). Decided from the constructions (the same constant,
// or an equal number), never from names; a function that binds the name for itself, or an importing file that does
// not take it from the module that fixes it, is not read as that constant. Small examples written fresh, with the
// buggy form (a narrower head) and cross-file pairs.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const HEAD_BODY = `

class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        q = self.query(x)
        k = self.key(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = torch.softmax(wei, dim=-1)
        return wei @ self.value(x)
`;

/** The head with its widths fixed at module level (line 20 holds the scale). */
const HEAD = `import torch
import torch.nn as nn

block_size = 8
n_embd = 32
${HEAD_BODY}`;

/** The head taking its widths from config.py (line 19 holds the scale). */
const HEAD_FROM_CONFIG = `import torch
import torch.nn as nn

from config import block_size, n_embd
${HEAD_BODY}`;

const MODEL_BODY = (args: string, init = 'self, vocab_size'): string => `

class TinyLM(nn.Module):
    def __init__(${init}):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.sa = Head(${args})
        self.out = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        return self.out(self.sa(self.tok(idx)))
`;

async function att004(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

async function headFindings(files: Record<string, string>): Promise<number[]> {
  const l = await workspaceLinter(files);
  return l
    .lintPython(files['head.py'] ?? '', { path: 'head.py' })
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

describe('lint: a one-head model whose head is built as wide as a module-level embedding width (ATT004)', () => {
  it('no construction in sight: C, the input width of Linear(n_embd, head_size), is reported', async () => {
    assert.deepEqual(await att004(HEAD), [20]);
  });
  it('built in the same file as Head(n_embd), the module constant: silent', async () => {
    assert.deepEqual(await att004(HEAD + MODEL_BODY('n_embd')), []);
  });
  it("built with the constant's value, by keyword (Head(head_size=32) with n_embd = 32): silent", async () => {
    assert.deepEqual(await att004(HEAD + MODEL_BODY('head_size=32')), []);
  });
  it('buggy: built narrower than the embedding (Head(n_embd // 4), Head(16)) is reported', async () => {
    assert.deepEqual(await att004(HEAD + MODEL_BODY('n_embd // 4')), [20]);
    assert.deepEqual(await att004(HEAD + MODEL_BODY('16')), [20]);
  });
  it('a constructor that binds n_embd for itself (a parameter) is not read as the constant: reported', async () => {
    assert.deepEqual(await att004(HEAD + MODEL_BODY('n_embd', 'self, vocab_size, n_embd=64')), [20]);
  });
  it('cross-file: model.py imports Head and n_embd from head.py and builds Head(n_embd): silent', async () => {
    const model = `import torch.nn as nn\n\nfrom head import Head, n_embd\n${MODEL_BODY('n_embd')}`;
    assert.deepEqual(await headFindings({ 'head.py': HEAD, 'model.py': model }), []);
  });
  it('cross-file: both files take n_embd from config.py and model.py builds Head(n_embd): silent', async () => {
    const config = 'block_size = 8\nn_embd = 32\n';
    const model = `import torch.nn as nn\n\nfrom config import n_embd\nfrom head import Head\n${MODEL_BODY('n_embd')}`;
    assert.deepEqual(await headFindings({ 'config.py': config, 'head.py': HEAD_FROM_CONFIG, 'model.py': model }), []);
  });
  it('cross-file, buggy: model.py builds Head(n_embd // 4): reported', async () => {
    const config = 'block_size = 8\nn_embd = 32\n';
    const model = `import torch.nn as nn\n\nfrom config import n_embd\nfrom head import Head\n${MODEL_BODY('n_embd // 4')}`;
    assert.deepEqual(await headFindings({ 'config.py': config, 'head.py': HEAD_FROM_CONFIG, 'model.py': model }), [19]);
  });
  it('cross-file: model.py defines its own n_embd = 64 and builds Head(n_embd): reported', async () => {
    const model = `import torch.nn as nn\n\nfrom head import Head\n\nn_embd = 64\n${MODEL_BODY('n_embd')}`;
    assert.deepEqual(await headFindings({ 'head.py': HEAD, 'model.py': model }), [20]);
  });
});
