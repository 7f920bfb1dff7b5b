// Linter throughput. Prints numbers, asserts nothing (the machine is shared; compare within one run).
//
//   npx tsx bench/lint.ts                      a generated 5,000-line attention file and a generated tree
//   npx tsx bench/lint.ts --file model.py      one file of yours (repeated runs, phase breakdown)
//   npx tsx bench/lint.ts --tree path/to/repo  every .py/.ipynb under a directory (one pass)
//   npx tsx bench/lint.ts --stall              only the extension-host stall comparison (below)
//   npx tsx bench/lint.ts --worker             only the dense file relinted in the lint worker (issue 11's bar)
//
// The stall comparison plays an editor relinting the dense file after each of a series of one-line edits,
// once with the linter on the host's own thread (how the extension linted before the lint worker) and once
// through the lint worker (src/worker/lint-worker.ts, how it lints now), and reports the longest time the
// host's event loop could not run anything (a 1 ms timer's worst lateness).
//
// Targets, each printed with whether this run met it: docs/DESIGN.md's 5,000-line file in under 100 ms once the
// parser is loaded; issue 11's bar with the heavier analysis, the ~4,900-line dense file relinted in the lint
// worker in at most 300 ms and a tree at 50,000 lines per second or more. Times are CPU time (process.cpuUsage:
// the machine is shared, and CPU time moves less with its load than wall time) and wall time; a target is called
// met on the median CPU time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance as nodePerformance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Evaluator } from '../src/lint/analysis/evaluator';
import { analyseScopes } from '../src/lint/analysis/scopes';
import { lintTree } from '../src/lint/engine';
import { createLinter } from '../src/lint';
import { createPythonParser } from '../src/lint/parser';
import { collectFiles, lintFiles, readGrammar, workspaceLinter } from '../src/cli/lint';
import { LintWorkerClient } from '../src/worker/lint-client';
import { generatedFile } from './lint-inputs';

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** docs/DESIGN.md: a 5,000-line file linted in under this many ms once the parser is loaded. */
const DESIGN_FILE_MS = 100;
/** Issue 11: the dense file relinted in the lint worker in at most this many ms. */
const WORKER_DENSE_MS = 300;
/** Issue 11: a tree linted at this many lines per second or more. */
const TREE_LINES_PER_S = 50_000;

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');

async function benchFile(source: string, label: string): Promise<void> {
  const lines = source.split('\n').length;
  const grammar = readGrammar();
  const t0 = performance.now();
  const linter = await createLinter(grammar);
  const parser = await createPythonParser(grammar);
  console.log(`parser load (both instances): ${(performance.now() - t0).toFixed(0)} ms`);
  linter.lintPython(source); // warm-up (JIT)
  const wall: number[] = [];
  const cpu: number[] = [];
  let findings = 0;
  for (let i = 0; i < 7; i++) {
    const c = process.cpuUsage();
    const w = performance.now();
    findings = linter.lintPython(source).length;
    wall.push(performance.now() - w);
    cpu.push(cpuMs(c));
  }
  console.log(`${label}: ${lines} lines, ${findings} findings`);
  console.log(
    `  lint: median ${median(wall).toFixed(1)} ms wall, ${median(cpu).toFixed(1)} ms CPU, fastest ${Math.min(...cpu).toFixed(1)} ms CPU  (${Math.round(lines / (median(cpu) / 1000)).toLocaleString('en')} lines/s CPU)`,
  );
  console.log(`  target (docs/DESIGN.md) < ${DESIGN_FILE_MS} ms for 5,000 lines: ${verdict(median(cpu) < (DESIGN_FILE_MS * lines) / 5000)} in CPU time`);
  // Phase breakdown (CPU ms, median of 5).
  const phases: Record<string, number[]> = { 'parse + copy': [], scopes: [], evaluation: [], 'rules (full lint minus the above)': [] };
  for (let i = 0; i < 5; i++) {
    let c = process.cpuUsage();
    const tree = parser.parse(source);
    phases['parse + copy'].push(cpuMs(c));
    c = process.cpuUsage();
    const sr = analyseScopes(tree);
    phases.scopes.push(cpuMs(c));
    c = process.cpuUsage();
    new Evaluator(tree, sr).run();
    phases.evaluation.push(cpuMs(c));
    c = process.cpuUsage();
    lintTree(tree);
    const full = cpuMs(c);
    phases['rules (full lint minus the above)'].push(Math.max(0, full - phases.scopes[i] - phases.evaluation[i]));
  }
  for (const [k, v] of Object.entries(phases)) console.log(`  ${k.padEnd(34)} ${median(v).toFixed(1)} ms CPU`);
  // What an editor relint parses: the same file after a one-line edit, unchanged blocks reused.
  const caching = await createPythonParser(grammar, { cacheBlocks: true });
  caching.parse(source);
  const edited: number[] = [];
  for (const text of editedVersions(source, /=/, 9)) {
    const c = process.cpuUsage();
    caching.parse(text);
    edited.push(cpuMs(c));
  }
  console.log(`  ${'parse + copy after a one-line edit'.padEnd(34)} ${median(edited).toFixed(1)} ms CPU (unchanged blocks reused)`);
}

/** One-line edits of `source`: the k-th edit appends a comment to the k-th of the lines matching `line`. */
function editedVersions(source: string, line: RegExp, count: number): string[] {
  const lines = source.split('\n');
  const at = lines.map((l, i) => (line.test(l) ? i : -1)).filter((i) => i >= 0);
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const i = at[Math.floor((k * at.length) / count)];
    lines[i] += `  # edit ${k}`;
    out.push(lines.join('\n'));
  }
  return out;
}

/** Runs `during` and returns the worst gap between runs of a 1 ms timer meanwhile (the event loop's longest stall). */
async function worstStall(during: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 30));
  last = performance.now();
  worst = 0;
  await during();
  worst = Math.max(worst, performance.now() - last);
  clearInterval(timer);
  return worst;
}

/** The lint worker as the editor starts it (src/worker/lint-worker.ts through tsx). */
function lintWorker(): LintWorkerClient {
  return new LintWorkerClient({
    workerPath: join(__dirname, '..', 'src', 'worker', 'lint-worker.ts'),
    execArgv: ['--require', 'tsx/cjs'],
    workerData: {
      treeSitterPath: require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
      pythonPath: require.resolve('tree-sitter-python/tree-sitter-python.wasm'),
    },
  });
}

/**
 * Issue 11's bar: the dense file relinted in the lint worker after each of a series of one-line edits, as the
 * editor asks (the document's workspace folder and path named, so the worker's workspace linter runs). CPU time is
 * the process's while the host only waits for the answer: the worker's lint and its garbage collection, plus the
 * host's own sending and receiving (under 1 ms, measured in the stall comparison below).
 */
async function benchWorker(source: string): Promise<void> {
  const lines = source.split('\n').length;
  // The first edits warm the worker's JIT up (an editor relints all day); the rest are timed.
  const warmUp = 5;
  const edits = editedVersions(source, /self\.n_head = n_head|d_k = query\.size/, warmUp + 15);
  const root = mkdtempSync(join(tmpdir(), 'lint-bench-ws-'));
  const client = lintWorker();
  try {
    writeFileSync(join(root, 'model.py'), source);
    let c = process.cpuUsage();
    let w = performance.now();
    await client.request('lintPython', { source, workspace: { root, path: 'model.py', version: 1 } });
    const firstCpu = cpuMs(c);
    const firstWall = performance.now() - w;
    const cpu: number[] = [];
    const wall: number[] = [];
    let findings = 0;
    for (let i = 0; i < edits.length; i++) {
      c = process.cpuUsage();
      w = performance.now();
      const answer = await client.request('lintPython', { source: edits[i], workspace: { root, path: 'model.py', version: i + 2 } });
      if (i < warmUp) continue;
      wall.push(performance.now() - w);
      cpu.push(cpuMs(c));
      findings = answer.result.length;
    }
    console.log(
      `the dense file in the lint worker: ${lines} lines, ${findings} findings, relinted after each of ${cpu.length} one-line edits (after ${warmUp} more to warm up; in a workspace)`,
    );
    console.log(
      `  relint: median ${median(cpu).toFixed(0)} ms CPU (fastest ${Math.min(...cpu).toFixed(0)}, slowest ${Math.max(...cpu).toFixed(0)}), median ${median(wall).toFixed(0)} ms wall`,
    );
    console.log(
      `  target (issue 11) <= ${WORKER_DENSE_MS} ms: ${verdict(median(cpu) <= WORKER_DENSE_MS)} in CPU time, ${verdict(median(wall) <= WORKER_DENSE_MS)} in wall time`,
    );
    console.log(
      `  first lint (worker start, tree-sitter load, whole-file parse, cold JIT): ${firstCpu.toFixed(0)} ms CPU, ${firstWall.toFixed(0)} ms wall (no target)`,
    );
  } finally {
    client.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

async function benchHostStall(source: string): Promise<void> {
  const lines = source.split('\n').length;
  const edits = editedVersions(source, /self\.n_head = n_head|d_k = query\.size/, 12);
  console.log(`extension-host event-loop stall while a ${lines}-line dense file is relinted after each of ${edits.length} one-line edits:`);
  const fmt = (xs: number[]) => `worst ${Math.max(...xs).toFixed(1)} ms, median ${median(xs).toFixed(1)} ms`;
  // The noise floor: the same timer with nothing to do (the machine is shared; scheduling alone shows up).
  const idle: number[] = [];
  for (let i = 0; i < 6; i++) idle.push(await worstStall(() => new Promise((r) => setTimeout(r, 100))));
  console.log(`  nothing running (noise floor, 100 ms windows): stall ${fmt(idle)}`);
  // CPU contention alone: another thread of this process busy for 300 ms (what any worker costs the host here).
  const busy: number[] = [];
  for (let i = 0; i < 4; i++) {
    busy.push(
      await worstStall(
        () =>
          new Promise<void>((resolve, reject) => {
            const w = new Worker('const end = Date.now() + 300; while (Date.now() < end) {}', { eval: true });
            w.on('exit', () => resolve());
            w.on('error', reject);
          }),
      ),
    );
  }
  console.log(`  a thread spinning for 300 ms (contention floor on this machine): stall ${fmt(busy)}`);
  // Now: the lint worker (src/worker/lint-worker.ts through tsx). Its start is measured on its own.
  const client = lintWorker();
  try {
    let firstLatency = 0;
    const first = await worstStall(async () => {
      const t = performance.now();
      await client.request('lintPython', { source });
      firstLatency = performance.now() - t;
    });
    const inWorker: number[] = [];
    const workerLatency: number[] = [];
    for (const text of edits) {
      inWorker.push(
        await worstStall(async () => {
          const t = performance.now();
          await client.request('lintPython', { source: text });
          workerLatency.push(performance.now() - t);
        }),
      );
    }
    // The host's own work per lint, without the stall probe's timer (whose ticks would count as work).
    const hostBusy: number[] = [];
    for (const text of edits) {
      const elu = nodePerformance.eventLoopUtilization();
      await client.request('lintPython', { source: text + '\n' });
      hostBusy.push(nodePerformance.eventLoopUtilization(elu).active);
    }
    console.log(`  lint worker (now):                  stall ${fmt(inWorker)}; lint ${median(workerLatency).toFixed(0)} ms median round trip`);
    console.log(
      `    host event loop busy per worker lint (sending the text, receiving findings): median ${median(hostBusy).toFixed(2)} ms, worst ${Math.max(...hostBusy).toFixed(2)} ms`,
    );
    console.log(
      `  lint worker, first request (worker start + tree-sitter load + cold lint): stall ${first.toFixed(1)} ms; ${firstLatency.toFixed(0)} ms round trip`,
    );
  } finally {
    client.dispose();
  }
  // Before: the linter on the host's thread (started and warmed up first, as after the first lint in an editor).
  const linter = await createLinter(readGrammar());
  linter.lintPython(source);
  const inThread: number[] = [];
  const inThreadLatency: number[] = [];
  for (const text of edits) {
    inThread.push(
      await worstStall(async () => {
        await new Promise<void>((r) =>
          setTimeout(() => {
            const t = performance.now();
            linter.lintPython(text);
            inThreadLatency.push(performance.now() - t);
            r();
          }, 0),
        );
      }),
    );
  }
  console.log(`  linter on the host thread (before): stall ${fmt(inThread)}; lint ${median(inThreadLatency).toFixed(0)} ms median`);
}

/** Runs of a tree, each with a fresh linter (no parse or analysis cache carried over; the JIT warm after the first). */
const TREE_RUNS = 3;

async function benchTree(dir: string, label: string, asWorkspace = false): Promise<void> {
  const grammar = readGrammar();
  const files = collectFiles(dir, (m) => console.error(m));
  const walls: number[] = [];
  const cpus: number[] = [];
  let r: ReturnType<typeof lintFiles> | undefined;
  for (let run = 0; run < TREE_RUNS; run++) {
    const linter = asWorkspace ? await workspaceLinter(dir) : await createLinter(grammar);
    const c = process.cpuUsage();
    const w = performance.now();
    r = lintFiles(linter, files, {}, asWorkspace ? dir : undefined);
    walls.push(performance.now() - w);
    cpus.push(cpuMs(c));
  }
  const wall = median(walls);
  const cpu = median(cpus);
  console.log(`${label}: ${r!.files} files, ${r!.lines.toLocaleString('en')} lines, ${r!.findings.length} findings`);
  const perS = (ms: number): string => Math.round(r!.lines / (ms / 1000)).toLocaleString('en');
  console.log(
    `  median of ${TREE_RUNS} runs (each a fresh linter): ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU: ${perS(wall)} lines/s wall, ${perS(cpu)} lines/s CPU (runs, CPU: ${cpus.map(perS).join(', ')})`,
  );
  console.log(
    `  target (issue 11) >= ${TREE_LINES_PER_S.toLocaleString('en')} lines/s: ${verdict(r!.lines / (cpu / 1000) >= TREE_LINES_PER_S)} in CPU time, ${verdict(r!.lines / (wall / 1000) >= TREE_LINES_PER_S)} in wall time`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const fileArg = args.indexOf('--file');
  const treeArg = args.indexOf('--tree');
  console.log(
    `lint benchmark (load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
  );
  if (fileArg >= 0) return benchFile(readFileSync(args[fileArg + 1], 'utf8'), args[fileArg + 1]);
  if (treeArg >= 0) return benchTree(args[treeArg + 1], args[treeArg + 1]);
  if (args.includes('--stall')) return benchHostStall(generatedFile(5000));
  if (args.includes('--worker')) return benchWorker(generatedFile(5000));
  await benchFile(generatedFile(5000), 'generated attention file');
  console.log('');
  await benchWorker(generatedFile(5000));
  console.log('');
  await benchFile(generatedFile(5000, 0.25), 'generated file, 1/4 attention code');
  console.log('');
  const dir = mkdtempSync(join(tmpdir(), 'lint-bench-'));
  try {
    for (let f = 0; f < 60; f++) {
      const sub = join(dir, `pkg${f % 6}`);
      mkdirSync(sub, { recursive: true });
      writeFileSync(join(sub, `mod${f}.py`), generatedFile(800, f % 5 === 0 ? 1 : 0.1));
    }
    await benchTree(dir, 'generated tree (60 files, 1 in 5 attention-heavy)');
    // The same tree as a workspace, each file also calling mask helpers imported from another file of it.
    writeFileSync(join(dir, 'pkg0', '__init__.py'), '');
    writeFileSync(
      join(dir, 'pkg0', 'masks.py'),
      'def make_pad_mask(ids, pad_id=0):\n    return ids.eq(pad_id)[:, None, None, :]\n\n\ndef make_keep_mask(ids, pad_id=0):\n    return ids.ne(pad_id)[:, None, None, :]\n',
    );
    for (let f = 0; f < 60; f++) {
      const path = join(dir, `pkg${f % 6}`, `mod${f}.py`);
      writeFileSync(
        path,
        `from pkg0.masks import make_pad_mask, make_keep_mask\n${readFileSync(path, 'utf8')}\n\ndef masked_${f}(q, k, v, ids):\n    return F.scaled_dot_product_attention(q, k, v, attn_mask=make_pad_mask(ids)), make_keep_mask(ids)\n`,
      );
    }
    await benchTree(dir, 'the same tree as a workspace (every file importing mask helpers from pkg0/masks.py)', true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  await benchHostStall(generatedFile(5000));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
