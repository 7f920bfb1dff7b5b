// Runs the linter over the REGRESSION batches of the unseen set (batches 1-3, 10, 13-22, 24-29, 31-33, 37, 40, 41, 50, 52, 54-57, 62, 63: spent,
// see test/lint-unseen/README.md) and prints, like the training report, their aggregate table and every miss and
// false finding with its case, file, line and rule. Since session 36 these batches are read case by case by the
// rules' authors: they are training data now, and their numbers a regression measure. The unseen group (batches
// 4-9, 11, 12, 23, 30, 35, 36, 38, 39, 42-49, 51, 53, 58-61) is never loaded here.
//
//   npx tsx scripts/lint-regression-report.ts [--rule ATT00x] [--dir COPY]
//
//   --rule CODE   list only the misses and false findings of that rule (the tables are always complete)
//   --dir COPY    read the batches from COPY/batch-N/ (a copy of each regression batch's cases folder; batch 1's is
//                 test/lint-unseen/cases) instead of test/lint-unseen, so that a rules author works in a folder that
//                 holds no unseen case
import { createLinter } from '../src/lint';
import { readGrammarWasm } from '../test/lint-corpus/load';
import { isRuleCode } from '../test/lint-corpus/score';
import { formatTrainReport, loadTrainBatches, regressionBatchesAsTraining, runTrain } from '../test/lint-train/train';
import { CaseWorkspace } from '../test/lint-unseen/unseen';

function parseArgs(argv: string[]): { rule?: string; dir?: string } {
  const opts: { rule?: string; dir?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rule') {
      const code = argv[++i];
      if (code === undefined || !isRuleCode(code)) throw new Error(`--rule needs a rule code ATT001..ATT008, got ${code ?? 'nothing'}`);
      opts.rule = code;
    } else if (a === '--dir') {
      const dir = argv[++i];
      if (dir === undefined) throw new Error('--dir needs a folder');
      opts.dir = dir;
    } else throw new Error(`unknown argument ${a} (expected --rule CODE or --dir COPY)`);
  }
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const workspace = new CaseWorkspace();
  const linter = await createLinter(readGrammarWasm(), { workspace });
  const report = formatTrainReport(runTrain(linter, loadTrainBatches(regressionBatchesAsTraining(opts.dir)), workspace), opts);
  console.log(report.replace(/^lint train, /gm, 'lint regression, '));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
