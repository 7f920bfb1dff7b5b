// Two versions of src/tokenize in one process, timed turn about on the same inputs: the tokenizer.json pipeline on
// 100 KB of English and of Chinese (bench/tokenize.ts's inputs and tokenizers, plus GPT-2's own tokenizer.json and
// a BERT WordPiece). On a shared machine whose load changes from second to second, separate runs of bench/tokenize.ts
// differ by 2x from noise alone; here each call of A is next to a call of B (in the order ABBA, then BAAB...), so
// load changes reach both alike, and the ratio of their medians is what one version costs against the other. Each
// call is timed on the wall clock and in CPU time (process.cpuUsage: less moved by the other processes' turns on
// the cores); the last line is the geometric mean of each ratio over the inputs. Run it with A = B (two copies of
// one tree) to see how far the ratios stray from 1 by noise alone.
// The token lists of A and B must be the same (checked: the bench stops otherwise).
// Numbers only, no assertions on time. Each root is a tree holding src/tokenize (e.g. `git archive main src | tar -x -C dir`).
// Run: npx tsx bench/tokenize-ab.ts <root A> <root B> [rounds=15]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rebuildGpt2TokenizerJson } from '../test/unit/tokenize/gpt2-json';
import { bertWordPieceJson, CHINESE_PARAGRAPH, ENGLISH_PARAGRAPH, llama3StyleJson, repeatTo, unigramFromGpt2, type Gpt2Json } from './tokenize-inputs';

type TokenizeModule = typeof import('../src/tokenize');

async function load(root: string): Promise<TokenizeModule> {
  return (await import(pathToFileURL(join(resolve(root), 'src/tokenize/index.ts')).href)) as TokenizeModule;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

async function main(): Promise<void> {
  const [rootA, rootB, roundsArg] = process.argv.slice(2);
  if (rootA === undefined || rootB === undefined) throw new Error('usage: npx tsx bench/tokenize-ab.ts <root A> <root B> [rounds]');
  const rounds = Number(roundsArg ?? 15);
  const [a, b] = [await load(rootA), await load(rootB)];
  const gpt2 = JSON.parse(JSON.stringify(await rebuildGpt2TokenizerJson())) as Gpt2Json;
  const english = repeatTo(ENGLISH_PARAGRAPH, 100_000);
  const chinese = repeatTo(CHINESE_PARAGRAPH, 100_000);
  const fixture = (family: string) => readFileSync(join(__dirname, '../test/fixtures/modern', family, 'tokenizer.json'), 'utf8');
  const jsons: [string, string | object][] = [
    ['GPT-2 tokenizer.json (ByteLevel)', gpt2],
    ['Llama-3 style (50k BPE)', llama3StyleJson(gpt2)],
    ['Unigram (50k pieces)', unigramFromGpt2(gpt2, [english, chinese])],
    ['BERT WordPiece (BertNormalizer)', bertWordPieceJson(ENGLISH_PARAGRAPH + CHINESE_PARAGRAPH)],
    ['fixture llama (byte-level BPE)', fixture('llama')],
    ['fixture mistral (SentencePiece BPE)', fixture('mistral')],
    ['fixture xlm_roberta (Unigram)', fixture('xlm_roberta')],
  ];
  console.log(`A = ${rootA}, B = ${rootB}; per input ${rounds} rounds (ABBA or BAAB: ${2 * rounds} calls of each) after 2 warm-up calls; times in ms`);
  console.log(
    `${'input'.padEnd(56)} ${'A median'.padStart(9)} ${'B median'.padStart(9)} ${'A min'.padStart(7)} ${'B min'.padStart(7)}  B/A median  B/A min  B/A CPU median`,
  );
  const ratios: [number[], number[], number[]] = [[], [], []]; // wall median, wall min, CPU median
  for (const [label, json] of jsons) {
    const tokA = a.tokenizerFromJson(json, label);
    const tokB = b.tokenizerFromJson(json, label);
    for (const [lang, text] of [
      ['English', english],
      ['Chinese', chinese],
    ] as const) {
      if (JSON.stringify(tokA.encode(text)) !== JSON.stringify(tokB.encode(text))) throw new Error(`${label}, ${lang}: A and B give different tokens`);
      const times: [number[], number[]] = [[], []];
      const cpuTimes: [number[], number[]] = [[], []];
      const run = (which: 0 | 1) => {
        const tok = which === 0 ? tokA : tokB;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        tok.encode(text);
        times[which].push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpuTimes[which].push((c.user + c.system) / 1000);
      };
      for (let k = 0; k < 2; k++) {
        tokA.encode(text);
        tokB.encode(text);
      }
      for (let r = 0; r < rounds; r++) {
        const first = r % 2 === 0 ? 0 : 1; // ABBA, BAAB, ...
        run(first);
        run(first === 0 ? 1 : 0);
        run(first === 0 ? 1 : 0);
        run(first);
      }
      const [ta, tb] = times;
      const [ma, mb, na, nb] = [median(ta), median(tb), Math.min(...ta), Math.min(...tb)];
      const cpuRatio = median(cpuTimes[1]) / median(cpuTimes[0]);
      ratios[0].push(mb / ma);
      ratios[1].push(nb / na);
      ratios[2].push(cpuRatio);
      console.log(
        `${`${label}, 100 KB ${lang}`.padEnd(56)} ${ma.toFixed(1).padStart(9)} ${mb.toFixed(1).padStart(9)} ${na.toFixed(1).padStart(7)} ${nb.toFixed(1).padStart(7)}  ${(mb / ma).toFixed(2).padStart(10)} ${(nb / na).toFixed(2).padStart(8)} ${cpuRatio.toFixed(2).padStart(15)}`,
      );
    }
  }
  const geomean = (xs: number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
  console.log(
    `${'geometric mean over the inputs'.padEnd(56)} ${''.padStart(35)}  ${geomean(ratios[0]).toFixed(2).padStart(10)} ${geomean(ratios[1]).toFixed(2).padStart(8)} ${geomean(ratios[2]).toFixed(2).padStart(15)}`,
  );
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs`,
  );
}

void main();
