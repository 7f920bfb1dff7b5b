// Lint time and memory against file size: does the work per file grow linearly with its attention sites?
// Prints numbers, asserts nothing.
//
//   npx tsx bench/lint-scaling.ts                   5k, 20k, 40k and 200k-line files of each kind
//   npx tsx bench/lint-scaling.ts 5000 20000        chosen sizes
//
// Each (kind, size) runs in a fresh process, so its peak RSS is that lint's alone (parser load included).
// Kinds:
//   functions   buggy attention functions (missing scale, 1/d_k, -1e9 fills): every site has a finding
//               and most have a fix, so every per-site check (fix text, T5 family, imports) runs;
//   script      the same code at module level (one scope: the whole file is every site's scope);
//   notebook    the functions kind as the cells of an .ipynb, 200 lines per cell.
import { spawnSync } from 'node:child_process';
import { createLinter } from '../src/lint';
import { readGrammar } from '../src/cli/lint';
import { notebook, python, type Kind } from './lint-inputs';

/** Child mode: lint one generated file, print {lines, findings, ms, rssMiB} as JSON. */
async function one(kind: Kind, lines: number): Promise<void> {
  const linter = await createLinter(readGrammar());
  const text = kind === 'notebook' ? notebook(lines) : python(kind, lines);
  const c0 = process.cpuUsage();
  const findings = kind === 'notebook' ? linter.lintNotebook(text).reduce((s, c) => s + c.findings.length, 0) : linter.lintPython(text).length;
  const used = process.cpuUsage(c0);
  const ms = (used.user + used.system) / 1000; // CPU time: the machine is shared, wall time is noise
  const rssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ lines, findings, ms, rssMiB, bytes: text.length }));
}

function main(): void {
  const sizes = process.argv
    .slice(2)
    .filter((a) => /^\d+$/.test(a))
    .map(Number);
  const wanted = sizes.length > 0 ? sizes : [5_000, 20_000, 40_000, 200_000];
  console.log('kind        lines     MB   findings  CPU time  ms/1k lines  peak RSS');
  for (const kind of ['functions', 'script', 'notebook'] as const) {
    for (const lines of wanted) {
      const r = spawnSync(process.execPath, [...process.execArgv, __filename, '--one', kind, String(lines)], { encoding: 'utf8', timeout: 600_000 });
      const last = r.stdout.trim().split('\n').pop() ?? '';
      if (r.status !== 0 || !last.startsWith('{')) {
        console.log(
          `${kind.padEnd(10)} ${String(lines).padStart(7)}  failed (${r.signal ?? `exit ${r.status}`}): ${(r.stderr || '').trim().split('\n').pop()}`,
        );
        continue;
      }
      const o = JSON.parse(last) as { lines: number; findings: number; ms: number; rssMiB: number; bytes: number };
      console.log(
        `${kind.padEnd(10)} ${String(o.lines).padStart(7)} ${(o.bytes / 1e6).toFixed(1).padStart(6)} ${String(o.findings).padStart(10)} ${(o.ms / 1000).toFixed(2).padStart(8)} s ${(o.ms / (o.lines / 1000)).toFixed(1).padStart(12)} ${o.rssMiB.toFixed(0).padStart(6)} MiB`,
      );
    }
  }
}

if (process.argv[2] === '--one') void one(process.argv[3] as Kind, Number(process.argv[4]));
else main();
