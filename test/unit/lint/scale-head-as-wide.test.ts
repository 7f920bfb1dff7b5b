// Class learnt from the training set (test/lint-train/b, t8b-02): a per-head scale judged against the width going into
// the query projection, `C**-0.5` with `B, T, C = x.shape` and `nn.Linear(n_embd, head_size)`, where the code that
// builds the head makes head_size == n_embd (`Head(block_size, n_embed, n_embed)`: one head as wide as the
// embedding). C is then the head width and the scale is right. Decided from the constructions (in this file or in a
// file importing it), every one of which must pass the same value for both widths; names are not read. Small
// examples written fresh, with the buggy form (a narrower head) and a cross-file pair.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const HEAD = `import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, block_size, n_embd, head_size):
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

const MODEL = (args: string): string => `import torch.nn as nn

from head import Head


class TinyLM(nn.Module):
    def __init__(self, vocab_size, n_embd=32, block_size=8):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.sa = Head(${args})
        self.out = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        return self.out(self.sa(self.tok(idx)))
`;

const IN_FILE = (args: string): string =>
  HEAD +
  `

class TinyLM(nn.Module):
    def __init__(self, vocab_size, n_embd=32, block_size=8):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.sa = Head(${args})
        self.out = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        return self.out(self.sa(self.tok(idx)))
`;

async function att004(src: string): Promise<string[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => `${f.line}`);
}

async function workspaceLinter(files: Record<string, string>): Promise<ExtendedLinter> {
  return createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
}

describe('lint: a scale by the projection input width where every construction makes the head as wide (ATT004)', () => {
  it('no construction in sight: C, the input width of Linear(n_embd, head_size), is reported', async () => {
    assert.deepEqual(await att004(HEAD), ['17']);
  });
  it('built in the same file with the same value for both widths (Head(block_size, n_embd, n_embd)): silent', async () => {
    assert.deepEqual(await att004(IN_FILE('block_size, n_embd, n_embd')), []);
  });
  it('built with equal numbers, by keyword (Head(8, n_embd=32, head_size=32)): silent', async () => {
    assert.deepEqual(await att004(IN_FILE('8, n_embd=32, head_size=32')), []);
  });
  it('buggy: built narrower than the embedding (head_size=n_embd // 4) is reported', async () => {
    assert.deepEqual(await att004(IN_FILE('block_size, n_embd, n_embd // 4')), ['17']);
  });
  it('one construction of two narrower (as in a multi-head block) keeps the finding', async () => {
    const src = IN_FILE('block_size, n_embd, n_embd').replace('        self.out =', '        self.sb = Head(block_size, n_embd, 16)\n        self.out =');
    assert.deepEqual(await att004(src), ['17']);
  });
  it('cross-file: the model in another file builds Head(block_size, n_embd, n_embd): silent', async () => {
    const files = { 'head.py': HEAD, 'model.py': MODEL('block_size, n_embd, n_embd') };
    const l = await workspaceLinter(files);
    assert.deepEqual(
      l.lintPython(HEAD, { path: 'head.py' }).filter((f) => f.code === 'ATT004'),
      [],
    );
  });
  it('cross-file, buggy: the model builds Head(block_size, n_embd, 8): reported', async () => {
    const files = { 'head.py': HEAD, 'model.py': MODEL('block_size, n_embd, 8') };
    const l = await workspaceLinter(files);
    assert.deepEqual(
      l
        .lintPython(HEAD, { path: 'head.py' })
        .filter((f) => f.code === 'ATT004')
        .map((f) => f.line),
      [17],
    );
  });
});
