// The unseen set of recorded programs (README.md beside this file): reading its labels, checking that it is well
// formed, running every program through `attention-inspector record --format json` with each interpreter, and
// scoring the findings against the labels. Only aggregates leave this module: no program name, path or line is
// ever returned or printed (once anyone reads which program is missed, the set is no longer unseen).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const UNSEEN_DIR = __dirname;
const REPO_ROOT = resolve(__dirname, '..', '..', '..');
const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const CODE = /^ATT00[1-8]$/;
/** A program (the recorder and its children) gets this long before it counts as a failed run. */
const RUN_TIMEOUT_MS = 240_000;

export type ProgramKind = 'script' | 'folder' | 'pytest';
export type ProgramClass = 'buggy' | 'correct' | 'folder' | 'pytest' | 'parameter-default';
export const CLASSES: readonly ProgramClass[] = ['buggy', 'correct', 'folder', 'pytest', 'parameter-default'];

interface Expectation {
  file: string; // absolute path
  line: number; // 1-based
  code: string;
}

export interface Program {
  /** What `record` runs: the script (a folder's main.py) or the pytest file. */
  entry: string;
  kind: ProgramKind;
  files: string[]; // every .py file of the program (absolute)
  label: 'buggy' | 'correct';
  why: string;
  torch2: boolean;
  exitCode: number;
  tags: string[];
  expectations: Expectation[];
}

/** Every program of the set: top-level `*.py` files (`test_*.py` run with `--pytest`) and folders with a main.py. */
export function listPrograms(dir = UNSEEN_DIR): Program[] {
  const programs: Program[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      const entry = join(path, 'main.py');
      if (!existsSync(entry)) throw new Error(`${path}: a program folder needs a main.py`);
      const files = readdirSync(path)
        .filter((f) => f.endsWith('.py'))
        .sort()
        .map((f) => join(path, f));
      programs.push(readProgram(entry, 'folder', files));
    } else if (name.endsWith('.py')) {
      programs.push(readProgram(path, name.startsWith('test_') ? 'pytest' : 'script', [path]));
    }
  }
  return programs;
}

function readProgram(entry: string, kind: ProgramKind, files: string[]): Program {
  const header = new Map<string, string>();
  for (const line of readFileSync(entry, 'utf8').split('\n')) {
    const match = /^# (label|why|requires|exit|tags): ?(.*)$/.exec(line);
    if (!match) {
      if (line.startsWith('#') || line.trim() === '') continue;
      break; // the header ends at the first line of code
    }
    if (header.has(match[1])) throw new Error(`${entry}: "# ${match[1]}:" given twice`);
    header.set(match[1], match[2].trim());
  }
  const label = header.get('label');
  if (label !== 'buggy' && label !== 'correct') throw new Error(`${entry}: the header needs "# label: buggy" or "# label: correct"`);
  const why = header.get('why') ?? '';
  if (why === '') throw new Error(`${entry}: the header needs "# why: ..." (what is wrong, or why it is right)`);
  const requires = header.get('requires');
  if (requires !== undefined && requires !== 'torch2') throw new Error(`${entry}: "# requires:" takes only torch2, not "${requires}"`);
  const exit = header.get('exit') ?? '0';
  if (!/^\d+$/.test(exit)) throw new Error(`${entry}: "# exit:" must be a number, not "${exit}"`);
  const tags = (header.get('tags') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  for (const tag of tags) if (tag !== 'parameter-default') throw new Error(`${entry}: unknown tag "${tag}"`);
  const expectations = files.flatMap(readExpectations);
  if (label === 'buggy' && expectations.length === 0) throw new Error(`${entry}: labelled buggy but no line says "# expect: ATT00X"`);
  if (label === 'correct' && expectations.length > 0) throw new Error(`${entry}: labelled correct but expects findings`);
  return { entry, kind, files, label, why, torch2: requires === 'torch2', exitCode: Number(exit), tags, expectations };
}

function readExpectations(file: string): Expectation[] {
  const out: Expectation[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const match = /# expect: (.*)$/.exec(text);
      if (!match) return;
      for (const code of match[1].split(',').map((c) => c.trim())) {
        if (!CODE.test(code)) throw new Error(`${file}:${index + 1}: "${code}" is not a runtime code ATT001..ATT008`);
        out.push({ file, line: index + 1, code });
      }
    });
  return out;
}

export function classesOf(program: Program): ProgramClass[] {
  const classes: ProgramClass[] = [program.label];
  if (program.kind === 'folder') classes.push('folder');
  if (program.kind === 'pytest') classes.push('pytest');
  if (program.tags.includes('parameter-default')) classes.push('parameter-default');
  return classes;
}

/** The messages of `python3 -m py_compile` on every file of the set (empty when all compile). */
export function compileErrors(programs: Program[], python: string): string[] {
  const files = programs.flatMap((p) => p.files);
  const cache = mkdtempSync(join(tmpdir(), 'unseen-pycache-'));
  try {
    // PYTHONPYCACHEPREFIX: the .pyc files go to a temporary folder, not beside the programs.
    const result = spawnSync(python, ['-m', 'py_compile', ...files], { encoding: 'utf8', env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
    if (result.error) throw result.error;
    return result.status === 0 ? [] : [result.stderr.trim()];
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

export interface Interpreter {
  name: string; // e.g. "torch 1.13.0a0"
  python: string;
  torch2: boolean;
}

/** The interpreters with torch the project sets up: Debian bookworm's /usr/bin/python3 and the sid root's wrapper. */
export function availableInterpreters(): Interpreter[] {
  const candidates = ['/usr/bin/python3', join(REPO_ROOT, '.cache', 'torch-sid', 'bin', 'python3')];
  const found: Interpreter[] = [];
  for (const python of candidates) {
    if (!existsSync(python)) continue;
    const probe = spawnSync(python, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8', cwd: REPO_ROOT });
    const version = probe.status === 0 ? probe.stdout.trim() : '';
    if (version === '') continue;
    found.push({ name: `torch ${version}`, python, torch2: Number(version.split('.')[0]) >= 2 });
  }
  return found;
}

interface Finding {
  file: string;
  line: number;
  code: string;
}

interface RunOutcome {
  ok: boolean; // the CLI printed the documented JSON
  findings: Finding[];
  programExit: number | undefined;
  cliExit: number | null;
}

function runRecorded(program: Program, interpreter: Interpreter): RunOutcome {
  const target = program.kind === 'pytest' ? ['--pytest', program.entry] : ['--', program.entry];
  const result = spawnSync(process.execPath, [CLI, 'record', '--format', 'json', '--python', interpreter.python, ...target], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: RUN_TIMEOUT_MS,
  });
  const failed: RunOutcome = { ok: false, findings: [], programExit: undefined, cliExit: result.status };
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    return failed;
  }
  if (typeof parsed !== 'object' || parsed === null) return failed;
  const { calls, diagnostics, program: run } = parsed as { calls?: unknown; diagnostics?: unknown; program?: { exitCode?: unknown } };
  if (!Array.isArray(calls) || !Array.isArray(diagnostics) || typeof run?.exitCode !== 'number') return failed;
  const findings: Finding[] = [];
  for (const d of diagnostics as { path?: unknown; line?: unknown; code?: unknown }[]) {
    if (typeof d.path !== 'string' || typeof d.line !== 'number' || typeof d.code !== 'string') return failed;
    findings.push({ file: resolve(REPO_ROOT, d.path), line: d.line, code: d.code });
  }
  return { ok: true, findings, programExit: run.exitCode, cliExit: result.status };
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

interface ClassCounts {
  programs: number;
  exact: number; // the findings are exactly the labelled ones (code, file and line)
  codesRight: number; // the set of codes found equals the set labelled
  anyFinding: number; // programs with at least one finding
  programFailed: number; // the program's exit code differs from its label (or no JSON)
}

export interface InterpreterScore {
  interpreter: string;
  runs: number;
  skipped: number; // torch2 programs on torch 1.x
  noJson: number; // runs where the CLI did not print the documented JSON
  contractBreaks: number; // CLI exit code not 0/1/3 as the findings and the program's exit say
  lineLevel: Map<string, Counts>; // per code: (file, line, code) matched exactly
  programLevel: Map<string, Counts>; // per code: the program reported the code anywhere (or not)
  classes: Map<ProgramClass, ClassCounts>;
}

function key(f: Finding): string {
  return `${f.file}\0${f.line}\0${f.code}`;
}

function bump(map: Map<string, Counts>, code: string, field: keyof Counts): void {
  const counts = map.get(code) ?? { tp: 0, fp: 0, fn: 0 };
  counts[field] += 1;
  map.set(code, counts);
}

/** Runs every program with one interpreter and scores it; `onProgress` receives only a running count. */
export function scoreInterpreter(programs: Program[], interpreter: Interpreter, onProgress?: (done: number, total: number) => void): InterpreterScore {
  const score: InterpreterScore = {
    interpreter: interpreter.name,
    runs: 0,
    skipped: 0,
    noJson: 0,
    contractBreaks: 0,
    lineLevel: new Map(),
    programLevel: new Map(),
    classes: new Map(CLASSES.map((c) => [c, { programs: 0, exact: 0, codesRight: 0, anyFinding: 0, programFailed: 0 }])),
  };
  const runnable = programs.filter((p) => interpreter.torch2 || !p.torch2);
  score.skipped = programs.length - runnable.length;
  runnable.forEach((program, index) => {
    const outcome = runRecorded(program, interpreter);
    score.runs += 1;
    if (!outcome.ok) score.noJson += 1;
    const expectedCli = outcome.programExit !== 0 ? 3 : outcome.findings.length > 0 ? 1 : 0;
    if (outcome.ok && outcome.cliExit !== expectedCli) score.contractBreaks += 1;

    const found = new Map(outcome.findings.map((f) => [key(f), f]));
    const expected = new Map(program.expectations.map((e) => [key(e), e]));
    for (const [k, e] of expected) bump(score.lineLevel, e.code, found.has(k) ? 'tp' : 'fn');
    for (const [k, f] of found) if (!expected.has(k)) bump(score.lineLevel, f.code, 'fp');
    const expectedCodes = new Set(program.expectations.map((e) => e.code));
    const foundCodes = new Set(outcome.findings.map((f) => f.code));
    for (const code of expectedCodes) bump(score.programLevel, code, foundCodes.has(code) ? 'tp' : 'fn');
    for (const code of foundCodes) if (!expectedCodes.has(code)) bump(score.programLevel, code, 'fp');

    const exact = outcome.ok && found.size === expected.size && [...expected.keys()].every((k) => found.has(k));
    const codesRight = outcome.ok && foundCodes.size === expectedCodes.size && [...expectedCodes].every((c) => foundCodes.has(c));
    for (const cls of classesOf(program)) {
      const counts = score.classes.get(cls)!;
      counts.programs += 1;
      if (exact) counts.exact += 1;
      if (codesRight) counts.codesRight += 1;
      if (found.size > 0) counts.anyFinding += 1;
      if (!outcome.ok || outcome.programExit !== program.exitCode) counts.programFailed += 1;
    }
    onProgress?.(index + 1, runnable.length);
  });
  return score;
}

function ratio(num: number, den: number): string {
  return den === 0 ? '   -' : `${((100 * num) / den).toFixed(0).padStart(3)}%`;
}

function countsTable(title: string, map: Map<string, Counts>): string[] {
  const lines = [`  ${title}`, '    code     TP  FP  FN  precision  recall'];
  const total: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const code of [...map.keys()].sort()) {
    const c = map.get(code)!;
    total.tp += c.tp;
    total.fp += c.fp;
    total.fn += c.fn;
    lines.push(
      `    ${code.padEnd(7)} ${String(c.tp).padStart(3)} ${String(c.fp).padStart(3)} ${String(c.fn).padStart(3)}       ${ratio(c.tp, c.tp + c.fp)}    ${ratio(c.tp, c.tp + c.fn)}`,
    );
  }
  lines.push(
    `    overall ${String(total.tp).padStart(3)} ${String(total.fp).padStart(3)} ${String(total.fn).padStart(3)}       ${ratio(total.tp, total.tp + total.fp)}    ${ratio(total.tp, total.tp + total.fn)}`,
  );
  return lines;
}

/** The aggregate report: per interpreter, precision/recall per code (line level and program level) and per class. */
export function formatScore(score: InterpreterScore): string {
  const lines = [
    `${score.interpreter}: ${score.runs} programs run, ${score.skipped} skipped (torch2 only), ${score.noJson} without the documented JSON, ${score.contractBreaks} CLI exit codes off the contract`,
    ...countsTable('findings at the labelled file and line:', score.lineLevel),
    ...countsTable('codes per program (anywhere in the program):', score.programLevel),
    '  by class      programs  exact  codes right  any finding  program failed',
  ];
  for (const cls of CLASSES) {
    const c = score.classes.get(cls)!;
    lines.push(
      `    ${cls.padEnd(17)} ${String(c.programs).padStart(4)}  ${String(c.exact).padStart(5)}  ${String(c.codesRight).padStart(11)}  ${String(c.anyFinding).padStart(11)}  ${String(c.programFailed).padStart(14)}`,
    );
  }
  return lines.join('\n');
}

/** Counts of the set itself (no names): programs by class and expected findings by code. */
export function formatSet(programs: Program[]): string {
  const byClass = CLASSES.map((cls) => `${cls} ${programs.filter((p) => classesOf(p).includes(cls)).length}`);
  const byCode = new Map<string, number>();
  for (const e of programs.flatMap((p) => p.expectations)) byCode.set(e.code, (byCode.get(e.code) ?? 0) + 1);
  const codes = [...byCode.keys()].sort().map((c) => `${c} ${byCode.get(c)}`);
  const torch2 = programs.filter((p) => p.torch2).length;
  return `unseen set: ${programs.length} programs (${byClass.join(', ')}; ${torch2} need torch2); expected findings: ${codes.join(', ')}`;
}
