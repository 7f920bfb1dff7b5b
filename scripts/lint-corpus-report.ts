// Runs the linter over the labelled corpus (test/lint-corpus) and prints, for the linter's author, the
// per-rule table (TP, FP, FN, precision, recall), whether the targets are met, and every false positive and
// false negative with file:line (and notebook cell).
//
//   npx tsx scripts/lint-corpus-report.ts [--rule ATT00x] [--why]
//
//   --rule CODE   list only the misses of that rule (the table is always complete)
//   --why         after each miss, print the case's "# why:" line
//
// Exit code: 0 when the targets are met, 1 when they are missed or the linter threw, 2 on bad usage.
import { createLinter } from '../src/lint';
import { loadCorpus, readGrammarWasm } from '../test/lint-corpus/load';
import { formatMisses, formatTable, isRuleCode, missedTargets, runCases, scoreResults, type CorpusCase } from '../test/lint-corpus/score';

interface Options {
  rule?: string;
  why: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { why: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--why') opts.why = true;
    else if (a === '--rule') {
      const code = argv[++i];
      if (code === undefined || !isRuleCode(code)) throw new Error(`--rule needs a rule code ATT001..ATT008, got ${code ?? 'nothing'}`);
      opts.rule = code;
    } else throw new Error(`unknown argument ${a} (expected --rule CODE or --why)`);
  }
  return opts;
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const cases = loadCorpus();
  const grammar = readGrammarWasm();
  const linter = await createLinter(grammar);
  const byFile = new Map<string, CorpusCase>(cases.map((c) => [c.file, c]));
  // A folder case is one workspace: its files' imports of each other are followed.
  const { results, crashes } = await runCases(cases, linter, (workspace) => createLinter(grammar, { workspace }));

  const score = scoreResults(results);
  const buggy = cases.filter((c) => c.header.label === 'buggy').length;
  const folders = cases.filter((c) => c.kind === 'folder').length;
  console.log(`lint corpus: ${cases.length} cases (${buggy} buggy, ${cases.length - buggy} correct; ${folders} folder workspaces)\n`);
  console.log(formatTable(score));
  const misses = missedTargets(score);
  console.log(`\ntargets (overall precision >= 0.9, recall >= 0.75 on ATT001-ATT004): ${misses.length === 0 ? 'met' : 'MISSED'}`);
  for (const m of misses) console.log(`  - ${m}`);

  const lines = formatMisses(results, { rule: opts.rule, why: opts.why, caseOf: (f) => byFile.get(f) });
  console.log(`\nfalse positives and false negatives${opts.rule ? ` of ${opts.rule}` : ''}: ${lines.length}`);
  for (const l of lines) console.log(`  ${l}`);

  if (crashes.length > 0) {
    console.log(`\nthe linter threw on ${crashes.length} case(s):`);
    for (const c of crashes) console.log(`  ${c}`);
  }
  return misses.length === 0 && crashes.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  },
);
