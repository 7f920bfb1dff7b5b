// The parser's direct WebAssembly cursor (src/lint/syntax/wasm-cursor.ts) against web-tree-sitter's public
// TreeCursor: every copied tree must be the same, node for node, on the repository's Python (examples, rule
// fixtures, the labelled corpus) and on inputs that stress the walk (syntax errors, non-ASCII text, CRLF,
// deep nesting, a large generated file), in both the filtered and the full copy; the comparison runs in a
// thread of its own (lint-parse-worker.ts), where the parser starts web-tree-sitter. Then the block reuse
// across edits, and the direct cursor's guards. (Lives beside the lint worker's tests because the worker is
// what runs the parser in the editor.)
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createPythonParser } from '../../../src/lint/parser';
import type { PyNode, PyTree } from '../../../src/lint/syntax/tree';
import { withWasmCursor, type WasmCursorApi } from '../../../src/lint/syntax/wasm-cursor';
import type { ParseCompareRequest, ParseCompareResult } from './lint-parse-worker';
import { parentsConsistent, shape } from './lint-tree-shape';

const root = join(__dirname, '..', '..', '..');
const grammar = {
  treeSitter: readFileSync(join(root, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm')),
  python: readFileSync(join(root, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm')),
};

function pythonFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) pythonFiles(p, out);
    else if (p.endsWith('.py')) out.push(p);
  }
  return out;
}

/** Both parses of every source, done in a fresh thread (see lint-parse-worker.ts). */
function compareInWorker(sources: { name: string; source: string }[]): Promise<ParseCompareResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(join(__dirname, 'lint-parse-worker.ts'), {
      execArgv: ['--require', 'tsx/cjs'],
      workerData: { grammar, sources } satisfies ParseCompareRequest,
    });
    w.once('message', (m: ParseCompareResult) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the parse worker exited (code ${code}) without an answer`)));
  });
}

const STRESS: Record<string, string> = {
  empty: '',
  'syntax errors': 'def f(q, k:\n    s = q @ k.transpose(-2, -1\n    return s.softmax(dim=-1)\nclass C(:\n  x = ]\n',
  'non-ASCII names and text': 'def 注意(q, k):\n    naïve = "ß→∑ 😀"  # 中文\n    return (q @ k.T / 8).softmax(-1), naïve\n',
  CRLF: 'import torch\r\ndef f(q, k):\r\n    return torch.softmax(q @ k.transpose(-2, -1), dim=-2)\r\n',
  'deep nesting': `x = ${'('.repeat(400)}1${')'.repeat(400)}\ny = ${'['.repeat(300)}${']'.repeat(300)}\n`,
  'f-strings and continuations': 'def f(mask, q):\n    s = f"{mask!r:>{10}} {q}" \\\n        + "x"\n    return s\n',
  'large generated': Array.from(
    { length: 300 },
    (_, i) =>
      `class A${i}(nn.Module):\n    def forward(self, q, k, v, mask):\n        s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))\n        s = s.masked_fill(mask == 0, float("-inf"))\n        return torch.softmax(s, dim=-1) @ v\n`,
  ).join('\n'),
};

describe('lint parser: direct WebAssembly cursor', function () {
  this.timeout(120_000);
  const files = [
    ...pythonFiles(join(root, 'examples')),
    ...pythonFiles(join(root, 'test', 'unit', 'lint', 'fixtures')),
    ...pythonFiles(join(root, 'test', 'lint-corpus', 'cases')),
  ];
  let compared: ParseCompareResult;
  before(async () => {
    const sources = [
      ...files.map((f) => ({ name: f, source: readFileSync(f, 'utf8') })),
      ...Object.entries(STRESS).map(([name, source]) => ({ name, source })),
    ];
    compared = await compareInWorker(sources);
    assert.deepEqual(
      compared.cursors,
      ['direct', 'public'],
      'this web-tree-sitter offers the direct cursor (else the comparison would be of one path with itself)',
    );
  });

  it(`copies the same trees as the public TreeCursor for ${files.length} repository files (filtered and full)`, () => {
    assert.ok(files.length > 50, 'the repository files were found');
    const results = compared.results.filter((r) => files.includes(r.name));
    assert.equal(results.length, files.length * 2);
    for (const r of results) {
      assert.equal(r.direct, r.public, `${r.name} (full: ${r.full})`);
      assert.ok(r.parentsOk, r.name);
    }
  });

  for (const name of Object.keys(STRESS)) {
    it(`copies the same tree for ${name}`, () => {
      const results = compared.results.filter((r) => r.name === name);
      assert.equal(results.length, 2);
      for (const r of results) assert.equal(r.direct, r.public, `full: ${r.full}`);
    });
  }

  it('leaves tokens with a shared, frozen empty child list (nothing can be added to a token by mistake)', async () => {
    const tree = (await createPythonParser(grammar)).parse('import torch\nx = torch.softmax(s, dim=-1)\n', { full: true });
    const tokens: PyNode[] = [];
    const stack = [tree.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.children.length === 0) tokens.push(n);
      stack.push(...n.children);
    }
    assert.ok(tokens.length > 5);
    for (const t of tokens) assert.ok(Object.isFrozen(t.children), `${t.type} has a frozen child list`);
  });
});

describe('lint parser: blocks reused across edits', function () {
  this.timeout(60_000);

  /** Ids are unique, below nodeCount, and there are nodeCount - 1 nodes besides the root. */
  function idsDense(tree: PyTree): boolean {
    const seen = new Set<number>();
    const stack: PyNode[] = [tree.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n.id) || n.id < 0 || n.id >= tree.nodeCount) return false;
      seen.add(n.id);
      stack.push(...n.children);
    }
    return seen.size === tree.nodeCount;
  }

  it('gives, after every edit, the tree a fresh parse gives (offsets, comments, dense unique ids)', async () => {
    const caching = await createPythonParser(grammar, { cacheBlocks: true });
    const fresh = await createPythonParser(grammar);
    const block = (i: number) =>
      `def attn${i}(q, k, mask):  # block ${i}\n    s = q @ k.transpose(-2, -1)  # scores\n    s = s.masked_fill(mask == 0, -1e9)\n    return s.softmax(dim=-1)\n`;
    let blocks = Array.from({ length: 12 }, (_, i) => block(i));
    const versions: string[] = [];
    const push = () => versions.push('import torch\n\n' + blocks.join('\n'));
    push();
    blocks[5] = blocks[5].replace('dim=-1', 'dim=-2'); // same length, same node count
    push();
    blocks[1] = blocks[1].replace('(-2, -1)', '(-2- -1)'); // same length, other node count: later ids move
    push();
    blocks[3] = blocks[3].replace('# scores', '# the scores, longer'); // longer: later blocks move
    push();
    blocks.splice(7, 1); // a block removed
    push();
    blocks.splice(2, 0, blocks[9]); // a block duplicated (the same text twice)
    push();
    blocks[0] = blocks[0].replace('return', 'x = 1\n    return'); // more nodes early on
    push();
    blocks = blocks.reverse(); // every block moved
    push();
    push(); // no change at all
    blocks[11] = blocks[11].replace('mask == 0', 'mask ==   '); // half-typed
    push();
    for (const v of versions) {
      const a = caching.parse(v);
      assert.deepEqual(shape(a), shape(fresh.parse(v)));
      assert.ok(idsDense(a), 'ids dense and unique');
      assert.ok(parentsConsistent(a));
    }
  });
});

describe('withWasmCursor (guards)', () => {
  const fakeApi = (heap: Int32Array): WasmCursorApi => {
    const call = () => {
      heap[9] = 77; // the export moved the cursor: its new state is in the transfer buffer
      return 1;
    };
    return {
      transferIndex: 8,
      heap: () => heap,
      firstChild: call,
      nextSibling: call,
      parent: call,
      typeId: () => 42,
      fieldId: () => 0,
      startIndex: () => 3,
      endIndex: () => 9,
    };
  };

  it('walks only a cursor whose state is in its own runtime, and copies the moved state back', () => {
    const heap = new Int32Array(16);
    heap.set([11, 12, 13, 14], 8);
    const cursor = { handles: [11, 12, 13, 14], nodeTypeId: 5 };
    const out = withWasmCursor(fakeApi(heap), { 0: 1000 }, cursor, (c) => [c.nodeTypeId, c.gotoFirstChild(), c.startIndex, c.endIndex]);
    assert.deepEqual(out, { result: [42, true, 3, 9] });
    assert.deepEqual(cursor.handles, [11, 77, 13, 14], 'the cursor object gets the state the exports left');
  });

  it('declines (and never calls the body) for another runtime instance or unexpected internals', () => {
    const heap = new Int32Array(16); // the transfer buffer does not hold this cursor: another runtime
    let called = false;
    const body = () => (called = true);
    assert.equal(withWasmCursor(fakeApi(heap), { 0: 1000 }, { handles: [11, 12, 13, 14], nodeTypeId: 5 }, body), undefined);
    heap.set([11, 12, 13, 14], 8);
    assert.equal(withWasmCursor(fakeApi(heap), { 0: 1000 }, { handles: [11, 12, 13], nodeTypeId: 5 }, body), undefined);
    assert.equal(withWasmCursor(fakeApi(heap), {}, { handles: [11, 12, 13, 14], nodeTypeId: 5 }, body), undefined);
    assert.equal(withWasmCursor(fakeApi(heap), { 0: 1000 }, { nodeTypeId: 5 }, body), undefined);
    assert.equal(called, false);
  });
});
