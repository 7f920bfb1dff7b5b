// Metamorphic test of the linter (test/lint-metamorphic, see its README): every case of the corpus, the holdout
// and the training set is rewritten by each semantics-preserving rewrite that applies (renames, temporaries,
// method/attribute forms, helper extraction in the file and to another file, constants and config fields); the
// original and the rewritten case are linted, each as a workspace of its own, and the findings compared on the
// original lines. Prints per rewrite and per rule the findings kept, lost and gained, then every lost and gained
// finding. Deterministic; reads no network and never test/lint-unseen.
//
//   npx tsx scripts/lint-metamorphic.ts [--out FILE] [--rewrite NAME[,NAME...]] [--case SUBSTRING] [--show]
//                                       [--repos DIR [--limit N] [--grep REGEX] [--seed N]]
//
//   --show   print the rewritten files of the selected cases instead of linting them
//   --repos  instead of the readable sets, the repositories under DIR (one subdirectory each; test/lint-metamorphic/
//            repos.ts): each one's Python files holding attention code are one unlabelled workspace case, the rest of
//            the repository readable; --limit takes N repositories in a seeded order (--seed, default 32), --grep
//            those whose directory name matches
import { writeFileSync } from 'node:fs';
import { createLinter } from '../src/lint';
import { readGrammarWasm } from '../test/lint-corpus/load';
import { formatMetaReport, loadMetaCases, runMetamorphic } from '../test/lint-metamorphic/harness';
import { caseLinter } from '../test/lint-metamorphic/linter';
import { loadRepoCases } from '../test/lint-metamorphic/repos';
import { applyRewrite, REWRITES } from '../test/lint-metamorphic/rewrites';
import { createPyParser } from '../test/lint-metamorphic/syntax';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let out: string | undefined;
  let only: string[] | undefined;
  let caseFilter: string | undefined;
  let show = false;
  let reposDir: string | undefined;
  let limit: number | undefined;
  let grep: RegExp | undefined;
  let seed: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') out = argv[++i];
    else if (a === '--rewrite') only = (argv[++i] ?? '').split(',');
    else if (a === '--case') caseFilter = argv[++i];
    else if (a === '--show') show = true;
    else if (a === '--repos') reposDir = argv[++i];
    else if (a === '--limit') limit = Number(argv[++i]);
    else if (a === '--grep') grep = new RegExp(argv[++i] ?? '');
    else if (a === '--seed') seed = Number(argv[++i]);
    else
      throw new Error(
        `unknown argument ${a} (expected --out FILE, --rewrite NAMES, --case SUBSTRING, --show, --repos DIR, --limit N, --grep REGEX or --seed N)`,
      );
  }
  const rewrites = only === undefined ? REWRITES : REWRITES.filter((r) => only.includes(r.name));
  if (only !== undefined && rewrites.length !== only.length)
    throw new Error(`unknown rewrite in ${only.join(',')}; known: ${REWRITES.map((r) => r.name).join(', ')}`);
  const grammar = readGrammarWasm();
  // the linter starts the tree-sitter runtime the rewrites' parser uses
  await createLinter(grammar);
  const parser = await createPyParser(grammar.python);
  const fromRepos = reposDir === undefined ? undefined : loadRepoCases(reposDir, { limit, grep, seed });
  const loaded = fromRepos ?? loadMetaCases();
  const cases = caseFilter === undefined ? loaded.cases : loaded.cases.filter((c) => `${c.set}/${c.name}`.includes(caseFilter));
  if (show) {
    // the rewritten files of the selected cases, to read a rewrite's output
    for (const c of cases) {
      for (const rw of rewrites) {
        const o = applyRewrite(rw, c.files, parser);
        console.log(`=== ${c.set}/${c.name} ${rw.name}: ${o.kind}${o.kind === 'unsafe' ? ` ${o.why}` : ''}`);
        if (o.kind === 'applied') for (const f of o.files) console.log(`--- ${f.path}\n${f.text}`);
      }
    }
    return;
  }
  const t0 = Date.now();
  const run = await runMetamorphic(cases, parser, caseLinter(grammar), rewrites);
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  const sets = [...new Set(cases.map((c) => c.set.split('/')[0]))].map((s) => `${s} ${cases.filter((c) => c.set.split('/')[0] === s).length}`);
  const files = cases.reduce((n, c) => n + c.files.length, 0);
  const lines = cases.reduce((n, c) => n + c.files.reduce((m, f) => m + f.text.split('\n').length, 0), 0);
  const header = [
    `# lint metamorphic`,
    ``,
    fromRepos === undefined
      ? `cases: ${sets.join(', ')}; notebooks not rewritten: ${loaded.skipped.length}; rewrites: ${rewrites.map((r) => r.name).join(', ')}`
      : `repositories: ${fromRepos.repos.length} (${reposDir}${limit === undefined ? '' : `, --limit ${limit} --seed ${seed ?? 32}`}${grep === undefined ? '' : `, --grep ${grep.source}`}); attention files: ${files} (${lines} lines) in ${cases.length} cases; files over the line cap left out: ${fromRepos.skipped.length}; rewrites: ${rewrites.map((r) => r.name).join(', ')}`,
    ...rewrites.map((r) => `- ${r.name}: ${r.doc}`),
  ].join('\n');
  const report = formatMetaReport(run, header);
  if (out !== undefined) writeFileSync(out, `${report}\n`);
  console.log(report);
  console.error(`run time: ${seconds} s`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(2);
});
