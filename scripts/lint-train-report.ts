// Runs the linter over the training set (test/lint-train, see its README) and prints the aggregate table (per
// batch and all batches together) and every miss and false finding with its case, file, line and rule. The
// training set is meant to be read: it is a regression set of real bugs from the same distribution as the unseen
// batches. It never reads test/lint-unseen.
//
//   npx tsx scripts/lint-train-report.ts [--rule ATT00x]
//
//   --rule CODE   list only the misses and false findings of that rule (the tables are always complete)
import { createLinter } from '../src/lint';
import { readGrammarWasm } from '../test/lint-corpus/load';
import { isRuleCode } from '../test/lint-corpus/score';
import { CaseWorkspace } from '../test/lint-unseen/unseen';
import { formatTrainReport, loadTrainBatches, runTrain } from '../test/lint-train/train';

function parseArgs(argv: string[]): { rule?: string } {
  const opts: { rule?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rule') {
      const code = argv[++i];
      if (code === undefined || !isRuleCode(code)) throw new Error(`--rule needs a rule code ATT001..ATT008, got ${code ?? 'nothing'}`);
      opts.rule = code;
    } else throw new Error(`unknown argument ${a} (expected --rule CODE)`);
  }
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const workspace = new CaseWorkspace();
  const linter = await createLinter(readGrammarWasm(), { workspace });
  console.log(formatTrainReport(runTrain(linter, loadTrainBatches(), workspace), opts));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
