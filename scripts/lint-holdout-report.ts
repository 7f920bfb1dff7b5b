// Runs the linter over the second lint regression set (test/lint-holdout: written as a held-out corpus, no
// longer one, see its README) and prints the per-rule table (TP, FP, FN, precision, recall) and every miss.
//
//   npx tsx scripts/lint-holdout-report.ts [--rule ATT00x] [--why] [--raw]
//
//   --rule CODE   list only the misses of that rule (the table is always complete)
//   --why         after each miss, print the case's "# why:" line
//   --raw         also lint the unredacted files (headers and expect comments left in) and print that table,
//                 to see how much the labels next to the code change the result
//
// Exit code: 0 when the linter ran on every case, 1 when it threw on any, 2 on bad usage.
import { createLinter } from '../src/lint';
import { loadCorpus, readGrammarWasm } from '../test/lint-corpus/load';
import { formatMisses, formatTable, isRuleCode, lintCase, matchCase, scoreResults, type CaseResult } from '../test/lint-corpus/score';
import { HOLDOUT_DIR, runHoldout } from '../test/lint-holdout/holdout';

interface Options {
  rule?: string;
  why: boolean;
  raw: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { why: false, raw: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--why') opts.why = true;
    else if (a === '--raw') opts.raw = true;
    else if (a === '--rule') {
      const code = argv[++i];
      if (code === undefined || !isRuleCode(code)) throw new Error(`--rule needs a rule code ATT001..ATT008, got ${code ?? 'nothing'}`);
      opts.rule = code;
    } else throw new Error(`unknown argument ${a} (expected --rule CODE, --why or --raw)`);
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
  const cases = loadCorpus(HOLDOUT_DIR);
  const byFile = new Map(cases.map((c) => [c.file, c]));
  const linter = await createLinter(readGrammarWasm());

  const run = runHoldout(linter, cases);
  const buggy = cases.filter((c) => c.header.label === 'buggy').length;
  console.log(
    `lint holdout (second regression set, not unseen): ${cases.length} cases (${buggy} buggy, ${cases.length - buggy} correct), headers and expect comments redacted\n`,
  );
  console.log(formatTable(run.score));

  const lines = formatMisses(run.results, { rule: opts.rule, why: opts.why, caseOf: (f) => byFile.get(f) });
  console.log(`\nfalse positives and false negatives${opts.rule ? ` of ${opts.rule}` : ''}: ${lines.length}`);
  for (const l of lines) console.log(`  ${l}`);

  if (opts.raw) {
    const rawResults: CaseResult[] = [];
    for (const c of cases) {
      try {
        rawResults.push(matchCase(c.file, c.expectations, lintCase(linter, c)));
      } catch {
        // a crash is reported by the redacted run above
      }
    }
    console.log(`\nsame cases linted WITHOUT redaction (labels visible to the linter):\n${formatTable(scoreResults(rawResults))}`);
  }

  if (run.crashes.length > 0) {
    console.log(`\nthe linter threw on ${run.crashes.length} case(s):`);
    for (const c of run.crashes) console.log(`  ${c.file}: ${c.message}`);
    return 1;
  }
  return 0;
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
