// The lint worker (src/worker/lint-worker.ts) behind its client: same findings as the linter run in-process,
// payload checks, a clear error when the grammar cannot be read, replacement of a crashed, exited or hung
// worker (requests fail cleanly, never an unhandled rejection), termination on dispose; and the host's
// one-lint-per-document scheduling (LatestPerKey).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LatestPerKey } from '../../../src/host/lint/pure';
import { createLinter, type ExtendedLinter, type NotebookCell } from '../../../src/lint';
import {
  isLinterStartError,
  LintClientDisposedError,
  LintWorkerClient,
  LintWorkerRestartedError,
  type LintClientOptions,
} from '../../../src/worker/lint-client';

const root = join(__dirname, '..', '..', '..');
const grammar = {
  treeSitterPath: join(root, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm'),
  pythonPath: join(root, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm'),
};
const tsx = ['--require', 'tsx/cjs'];
const realWorker = join(root, 'src', 'worker', 'lint-worker.ts');
const fakeWorker = join(__dirname, 'lint-fake-worker.ts');
const read = (...p: string[]) => readFileSync(join(root, ...p), 'utf8');

function client(extra: Partial<LintClientOptions> = {}): LintWorkerClient {
  return new LintWorkerClient({ workerPath: realWorker, workerData: grammar, execArgv: tsx, ...extra });
}

describe('lint worker', function () {
  this.timeout(60_000);
  let inProcess: ExtendedLinter;
  let c: LintWorkerClient;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async () => {
    inProcess = await createLinter({ treeSitter: readFileSync(grammar.treeSitterPath), python: readFileSync(grammar.pythonPath) });
    process.on('unhandledRejection', onUnhandled);
  });
  after(() => process.off('unhandledRejection', onUnhandled));
  afterEach(() => {
    c?.dispose();
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  it('starts lazily, then answers with the findings the in-process linter gives, from one worker', async () => {
    c = client();
    assert.equal(c.running, false, 'nothing starts before the first request');
    const files = [
      ['examples', 'attention_bug.py'],
      ['examples', 'padding_masks.py'],
      ['test', 'unit', 'lint', 'fixtures', 'ATT001', 'dim_minus2.py'],
      ['test', 'unit', 'lint', 'fixtures', 'ATT002', 'sdpa_key_padding_mask.py'],
    ];
    let total = 0;
    let thread: number | undefined;
    for (const f of files) {
      const source = read(...f);
      const expected = inProcess.lintPython(source);
      const answer = await c.request('lintPython', { source });
      assert.deepEqual(answer.result, expected, f.join('/'));
      assert.deepEqual(answer.internalErrors, []);
      total += expected.length;
      thread ??= c.threadId;
      assert.equal(c.threadId, thread, 'the same worker serves every request');
    }
    assert.ok(total > 0, 'the files have findings (the comparison is not between empty lists)');
    assert.equal(c.generation, 1);
  });

  it('honours select/ignore and answers requests in order', async () => {
    c = client();
    const source = read('examples', 'attention_bug.py');
    const options = [{ select: ['ATT001'] }, { ignore: ['ATT001'] }, {}];
    const answers = await Promise.all(options.map((o) => c.request('lintPython', { source, options: o })));
    answers.forEach((a, i) => assert.deepEqual(a.result, inProcess.lintPython(source, options[i])));
    assert.ok(answers[0].result.every((f) => f.code === 'ATT001'));
    assert.ok(answers[1].result.every((f) => f.code !== 'ATT001'));
    assert.ok(answers[2].result.length > answers[0].result.length);
  });

  it('lints notebook cells and notebook files like the in-process linter', async () => {
    c = client();
    const json = read('examples', 'attention_notebook.ipynb');
    const nb = await c.request('lintNotebookFile', { json });
    assert.deepEqual(nb.result, inProcess.lintNotebookFile(json));
    assert.ok(nb.result.cells.some((cell) => cell.findings.length > 0));
    const cells: NotebookCell[] = (JSON.parse(json).cells as { cell_type: string; source: string[] | string }[])
      .map((cell, index) => ({ index, source: Array.isArray(cell.source) ? cell.source.join('') : cell.source, code: cell.cell_type === 'code' }))
      .filter((cell) => cell.code)
      .map(({ index, source }) => ({ index, source }));
    const answer = await c.request('lintCells', { cells });
    assert.deepEqual(answer.result, inProcess.lintCells(cells));
    const broken = await c.request('lintNotebookFile', { json: '{"cells": [' });
    assert.deepEqual(broken.result.cells, []);
    assert.match(broken.result.error ?? '', /not valid JSON/);
  });

  it('rejects malformed payloads with an error naming the field, and keeps serving', async () => {
    c = client();
    await assert.rejects(c.request('lintPython', { source: 42 as unknown as string }), /lintPython: payload\.source: expected a string, got number/);
    await assert.rejects(c.request('lintCells', { cells: [{ index: -1, source: 'x' }] }), /lintCells: payload\.cells\[0\]/);
    await assert.rejects(
      c.request('lintPython', { source: 'x', options: { select: 'ATT001' as unknown as string[] } }),
      /payload\.options\.select must be an array/,
    );
    await assert.rejects(c.request('nonsense' as 'lintPython', { source: '' }), /no request type 'nonsense'/);
    const ok = await c.request('lintPython', { source: 'import torch\nx = torch.softmax(s, dim=-2)\n' });
    assert.deepEqual(ok.result, inProcess.lintPython('import torch\nx = torch.softmax(s, dim=-2)\n'));
    assert.equal(c.generation, 1, 'bad requests do not cost the worker');
  });

  it('fails every request with a LinterStartError naming the grammar file it could not read', async () => {
    c = client({ workerData: { ...grammar, pythonPath: join(root, 'no', 'such', 'tree-sitter-python.wasm') } });
    const err = await c.request('lintPython', { source: 'x = 1\n' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isLinterStartError(err), String(err));
    assert.match((err as Error).message, /no\/such\/tree-sitter-python\.wasm/);
    assert.ok(isLinterStartError(await c.request('lintCells', { cells: [] }).catch((e: unknown) => e)));
  });

  it('terminates the worker on dispose: pending and later requests fail cleanly', async () => {
    c = client();
    await c.request('lintPython', { source: 'x = 1\n' });
    const thread = c.threadId;
    assert.ok(thread !== undefined && c.running);
    const pending = c.request('lintPython', { source: read('examples', 'attention_bug.py') });
    c.dispose();
    await assert.rejects(pending, LintClientDisposedError);
    await assert.rejects(c.request('lintPython', { source: 'x = 1\n' }), LintClientDisposedError);
    assert.equal(c.running, false);
  });

  for (const [how, source] of [
    ['crashes', 'crash'],
    ['exits', 'exit'],
  ] as const) {
    it(`replaces a worker that ${how}: its requests fail with LintWorkerRestartedError, the next one gets a new worker`, async () => {
      const reasons: string[] = [];
      c = new LintWorkerClient({ workerPath: fakeWorker, workerData: grammar, execArgv: tsx, onRestart: (r) => reasons.push(r) });
      await c.request('lintPython', { source: 'fine' });
      const first = c.threadId;
      const [bad, queued] = [c.request('lintPython', { source }), c.request('lintPython', { source: 'fine' })];
      await assert.rejects(bad, LintWorkerRestartedError);
      await assert.rejects(queued, LintWorkerRestartedError, 'requests queued behind the failure fail too');
      assert.equal(reasons.length, 1, 'one restart reported');
      assert.match(reasons[0], how === 'crashes' ? /crashed: boom/ : /exited unexpectedly \(code 3\)/);
      assert.equal(c.running, false, 'the replacement starts with the next request');
      const after = await c.request('lintPython', { source: 'internal' });
      assert.deepEqual(after, { result: [], internalErrors: ['rule threw'] });
      assert.notEqual(c.threadId, first);
      assert.equal(c.generation, 2);
    });
  }

  it('replaces a worker that stops answering', async () => {
    const reasons: string[] = [];
    c = new LintWorkerClient({ workerPath: fakeWorker, workerData: grammar, execArgv: tsx, timeoutMs: 1_500, onRestart: (r) => reasons.push(r) });
    await c.request('lintPython', { source: 'fine' }); // started (tsx start-up is not part of the limit below)
    await assert.rejects(c.request('lintPython', { source: 'hang' }), LintWorkerRestartedError);
    assert.deepEqual(reasons, ["the lint worker did not answer 'lintPython' within 2 s and was restarted"]);
    assert.deepEqual(await c.request('lintPython', { source: 'fine' }), { result: [], internalErrors: [] });
    assert.equal(c.generation, 2);
  });
});

describe('LatestPerKey (one lint per document at a time)', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('runs one task per key at a time, then only the latest of those requested meanwhile', async () => {
    const q = new LatestPerKey();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const task = (name: string, wait?: Promise<void>) => async () => {
      log.push(`start ${name}`);
      await wait;
      log.push(`end ${name}`);
    };
    const a = q.run('doc', task('a', gate));
    const b = q.run('doc', task('b'));
    const c = q.run('doc', task('c'));
    const other = q.run('other', task('x'));
    await other;
    assert.deepEqual(log, ['start a', 'start x', 'end x'], 'another key runs meanwhile; b and c wait');
    assert.equal(q.busy('doc'), true);
    release();
    await Promise.all([a, b, c]);
    assert.deepEqual(log, ['start a', 'start x', 'end x', 'end a', 'start c', 'end c'], 'b was replaced by c');
    assert.equal(q.busy('doc'), false);
  });

  it('reports failing tasks (also synchronous throws) and carries on', async () => {
    const errors: unknown[] = [];
    const q = new LatestPerKey((e) => errors.push(e));
    await q.run('k', () => {
      throw new Error('sync');
    });
    assert.equal(q.busy('k'), false);
    const first = q.run('k', async () => {
      await tick();
      throw new Error('async');
    });
    let ran = false;
    const second = q.run('k', async () => {
      ran = true;
    });
    await Promise.all([first, second]);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['sync', 'async'],
    );
    assert.equal(ran, true);
    assert.equal(q.busy('k'), false);
  });
});
