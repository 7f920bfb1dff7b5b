// The linter's output on a fixed set of inputs, to show that a change (a speed-up, a refactor) changes no byte of
// it. Two views of the same inputs:
//   - the CLI's `--format json` (dist/cli.js, so build first), each input set linted as a workspace (a directory
//     argument), which takes in cross-file evidence and related locations;
//   - the library's findings in full (fixes and their edits included), each file linted alone with
//     createLinter().lintPython / lintNotebook.
// Inputs: test/lint-corpus/cases, test/lint-holdout/cases, examples/, test/unit/lint/fixtures, with --batches DIR
// each folder of DIR as a set of its own, and the benches' generated files
// (bench/lint-inputs.ts: the dense file, the 1/4-attention file, the scaling kinds).
//
//   npx tsx scripts/lint-output-dump.ts --out dump.txt              this tree's output, written to a file
//   npx tsx scripts/lint-output-dump.ts --against /path/to/other    this tree and another (its dist/ built),
//                                                                    diffed; exit 1 when they differ
//   npx tsx scripts/lint-output-dump.ts --tree /path/to/other --out other.txt
//   ... --extra DIR [--extra DIR2]                                   also these directories (a real tree: the
//                                                                    lint-scan repositories), each one set
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { generatedFile, notebook, python } from '../bench/lint-inputs';

const HERE = resolve(__dirname, '..');

/** Copies every input set into `root`, one directory per set; returns the set names. */
function materialise(root: string, batches: string | undefined, extra: readonly string[]): string[] {
  const sets: [string, string][] = [
    ['corpus', join(HERE, 'test/lint-corpus/cases')],
    ['holdout', join(HERE, 'test/lint-holdout/cases')],
    ['examples', join(HERE, 'examples')],
    ['unit-fixtures', join(HERE, 'test/unit/lint/fixtures')],
  ];
  if (batches !== undefined && existsSync(batches)) for (const b of readdirSync(batches).sort()) sets.push([`regression-${b}`, join(batches, b)]);
  extra.forEach((dir, i) => sets.push([`extra-${i}-${basename(resolve(dir))}`, dir]));
  for (const [name, src] of sets) cpSync(src, join(root, name), { recursive: true });
  const gen = join(root, 'bench');
  mkdirSync(gen);
  writeFileSync(join(gen, 'dense.py'), generatedFile(5000));
  writeFileSync(join(gen, 'quarter_attention.py'), generatedFile(5000, 0.25));
  writeFileSync(join(gen, 'scaling_functions.py'), python('functions', 3000));
  writeFileSync(join(gen, 'scaling_script.py'), python('script', 3000));
  writeFileSync(join(gen, 'scaling_notebook.ipynb'), notebook(3000));
  return [...sets.map(([n]) => n), 'bench'];
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(py|ipynb)$/.test(e)) out.push(p);
  }
  return out;
}

/** The library view, run in `tree` (its own src/), printing one JSON line per file. */
const LIBRARY_DUMPER = (tree: string): string => `
import { readFileSync } from 'node:fs';
import { createLinter } from ${JSON.stringify(join(tree, 'src/lint'))};
import { readGrammar } from ${JSON.stringify(join(tree, 'src/cli/lint'))};
async function main(): Promise<void> {
  const linter = await createLinter(readGrammar());
  const [root, ...paths] = process.argv.slice(2);
  for (const p of paths) {
    const text = readFileSync(root + '/' + p, 'utf8');
    const findings = p.endsWith('.ipynb') ? linter.lintNotebook(text) : linter.lintPython(text);
    process.stdout.write(JSON.stringify({ path: p, findings }) + '\\n');
  }
}
void main();
`;

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  // The CLI exits 1 when it reports findings; anything else (or no output) is a failure of the dump itself.
  if (r.error || (r.status !== 0 && r.status !== 1) || r.stdout.length === 0)
    throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} in ${cwd} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

function dump(tree: string, root: string, sets: string[]): string {
  const cli = join(tree, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build in ${tree}`);
  const parts: string[] = [];
  for (const s of sets) {
    parts.push(`=== cli --format json ${s}\n`, run(process.execPath, [cli, 'lint', '--format', 'json', '.'], join(root, s)));
  }
  const dumper = join(root, `.dumper-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(dumper, LIBRARY_DUMPER(tree));
  try {
    const all = sets.flatMap((s) => files(join(root, s)).map((f) => relative(root, f)));
    parts.push('=== library findings, each file alone\n', run(process.execPath, [require.resolve('tsx/cli'), dumper, root, ...all], tree));
  } finally {
    rmSync(dumper);
  }
  return parts.join('');
}

/** The first differing line of two dumps and a few lines around it, as `-` (a) and `+` (b) lines. */
function firstDifference(a: string, b: string): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  const from = Math.max(0, i - 5);
  return [
    `first difference at line ${i + 1}:`,
    ...la.slice(from, i).map((l) => `  ${l}`),
    ...la.slice(i, i + 10).map((l) => `- ${l}`),
    ...lb.slice(i, i + 10).map((l) => `+ ${l}`),
  ].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const root = mkdtempSync(join(tmpdir(), 'lint-dump-'));
  try {
    const extra = args.flatMap((a, i) => (a === '--extra' && args[i + 1] !== undefined ? [args[i + 1]] : []));
    const sets = materialise(root, opt('--batches'), extra);
    const against = opt('--against');
    if (against === undefined) {
      const text = dump(resolve(opt('--tree') ?? HERE), root, sets);
      const out = opt('--out');
      if (out !== undefined) writeFileSync(out, text);
      else process.stdout.write(text);
      console.error(`lint-output-dump: ${sets.join(', ')}: ${text.length.toLocaleString('en')} characters`);
      return;
    }
    const mine = dump(HERE, root, sets);
    const theirs = dump(resolve(against), root, sets);
    if (mine === theirs) {
      console.log(`lint-output-dump: identical (${sets.join(', ')}; ${mine.length.toLocaleString('en')} characters)`);
      return;
    }
    console.log(firstDifference(theirs, mine));
    console.log(`lint-output-dump: DIFFERENT from ${against} (above: the first lines that differ, - other, + this tree)`);
    process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
