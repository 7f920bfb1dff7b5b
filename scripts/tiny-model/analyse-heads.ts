// What the tiny bilingual model's heads learned, measured on the extension's own forward pass (the code that
// runs in the panel), and a figure of the clearest heads.
//
//   npx tsx scripts/tiny-model/analyse-heads.ts [--model media/models/tiny-bilingual] [--svg out.svg] [--png out.png] [--json]
//   (--png renders the SVG with headless Chromium: apt-get install chromium fonts-wqy-zenhei)
//
// Per head (layer.head), averaged over the evaluation texts below (written for this script) or over seeded
// random token sequences:
//   prev      mean weight on the previous token (rows 1..T-1); a uniform causal head gives ≈ mean 1/(i+1)
//   first     mean weight on the first token (a "resting" position many heads park on)
//   self      mean weight on the query's own position
//   punct     mean weight on earlier punctuation and separator tokens (, . ， 。 ： spaces, newline ...; the
//             query's own position left out), and what a head spreading evenly over the visible keys would
//             give them (punct~)
//   induct    on random frequent tokens x₁…xₙ x₁…xₙ (ids 256..1023), mean weight from the second xᵢ on xᵢ₊₁ of the first copy: the
//             token that followed this token last time (the induction pattern)
//   dup       the same, on the first xᵢ itself (the previous occurrence of the current token)
//   sent      on natural sentences said twice (REPEAT_TEXTS, English and Chinese): from each token that occurred
//             before, mean weight on the tokens that followed its earlier occurrences (the induction pattern
//             on text)
// and, from the logits, the mean next-token loss on the first and on the second copy of the random tokens
// (an in-context copy: the second copy is predictable only by looking back).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decoderFamilyOf, decoderForward, decoderPrefix, parseConfigJson, readDecoder } from '../../src/models';
import { tokenizerFromJson } from '../../src/tokenize';
import type { Token } from '../../src/tokenize';
import { snapshotFromFile } from '../../src/weights/snapshot';

/** Evaluation texts (original to this script): everyday English and modern Chinese. */
export const EVAL_TEXTS = [
  'The cat sat on the mat because it was tired. Later, the dog came in, sniffed the mat, and lay down beside the cat.',
  'She opened the window; the air was cold, clear and quiet. "Good morning," she said, and went back to her book.',
  'Rivers carry water from the mountains to the sea: slowly in summer, quickly in spring, and hardly at all in winter.',
  '我爱自然语言处理。今天天气很好，我们去公园散步，看见很多人在湖边读书。',
  '老师说：“学习要有耐心。”学生们点头，然后打开书，开始读第一课。',
  '春天来了，花开了，鸟儿在树上唱歌；孩子们在草地上跑来跑去。',
];

/** Natural sentences said twice (original to this script), for the induction pattern on text. */
export const REPEAT_TEXTS = [
  'A little bird sang in the tall tree. A little bird sang in the tall tree.',
  'The old man walked to the river and sat down. The old man walked to the river and sat down.',
  '春天来了，花开了，鸟儿在树上唱歌。春天来了，花开了，鸟儿在树上唱歌。',
];

/** Inputs of the figure: a bilingual sentence and a repeated one. */
export const FIGURE_TEXTS = {
  sentence: 'The cat sat on the mat, and the dog slept. 我爱自然语言处理，你呢？',
  repeat: 'A little bird sang in the tall tree. A little bird sang in the tall tree.',
};

const PUNCT = /^[\p{P}\p{S}\p{White_Space}]+$/u;
const INDUCTION_LENGTH = 30;
const INDUCTION_SEQUENCES = 8;

export interface HeadScores {
  layer: number;
  head: number;
  prev: number;
  first: number;
  /** mean weight on the query's own position */
  self: number;
  punct: number;
  punctBaseline: number;
  induct: number;
  dup: number;
  /** on REPEAT_TEXTS: mean weight on the tokens after the earlier occurrences of the query's token */
  sent: number;
}

export interface Analysis {
  heads: HeadScores[];
  /** Mean next-token loss (nats) on the first and the second copy of the random sequences. */
  copyLoss: { first: number; second: number };
  /**
   * What a head spreading its weight evenly over the visible keys would score: `prev` on the evaluation texts
   * (mean 1/(i+1) over rows i ≥ 1), `induct` on the repeats (mean 1/(i+1) over the second copy's rows).
   */
  evenSpread: { prev: number; induct: number; sent: number };
}

export interface Loaded {
  checkpoint: ReturnType<typeof readDecoder>;
  encode: (text: string) => Token[];
}

/** The model in `dir` (model.safetensors, config.json, tokenizer.json), read as the extension reads any RoPE decoder. */
export async function loadTinyModel(dir: string): Promise<Loaded> {
  const file = join(dir, 'model.safetensors');
  const configFile = join(dir, 'config.json');
  const config = parseConfigJson(readFileSync(configFile, 'utf8'), configFile);
  const family = decoderFamilyOf(typeof config?.model_type === 'string' ? config.model_type : undefined);
  if (!family) throw new Error(`${configFile}: model_type ${JSON.stringify(config?.model_type)} is not a RoPE decoder (this script reads Llama-style models)`);
  const { store } = await snapshotFromFile(new Uint8Array(readFileSync(file)), 'model.safetensors');
  const prefix = decoderPrefix(store.keys());
  if (prefix === undefined) throw new Error(`${file}: no tensors named like a decoder's layers (model.embed_tokens.weight, …)`);
  const checkpoint = readDecoder(store, prefix, config!, family, 'model.safetensors');
  const tokenizer = tokenizerFromJson(readFileSync(join(dir, 'tokenizer.json'), 'utf8'), 'tiny-bilingual tokenizer.json');
  return { checkpoint, encode: (text) => tokenizer.encode(text, { maxTokens: checkpoint.config.maxPositions }) };
}

/** (nLayer, nHead, T, T) attention of one sequence, as one array per layer of (H, T, T). */
export async function attentions(loaded: Loaded, ids: number[], logits = false) {
  const out = await decoderForward(loaded.checkpoint, ids, { logits });
  return { probs: out.layers.map((l) => l.probs!.data), logits: out.logits };
}

/** mulberry32: a small seeded generator, so the random sequences are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function analyse(loaded: Loaded): Promise<Analysis> {
  const { nLayer, nHead, vocabSize } = loaded.checkpoint.config;
  const heads: HeadScores[] = [];
  for (let l = 0; l < nLayer; l++)
    for (let h = 0; h < nHead; h++) heads.push({ layer: l, head: h, prev: 0, first: 0, self: 0, punct: 0, punctBaseline: 0, induct: 0, dup: 0, sent: 0 });
  const at = (l: number, h: number) => heads[l * nHead + h];

  // Natural text: previous token, first token, punctuation.
  let prevRows = 0;
  let rows = 0;
  let evenPrev = 0;
  let evenInduct = 0;
  for (const text of EVAL_TEXTS) {
    const tokens = loaded.encode(text);
    const ids = tokens.map((t) => t.id!);
    const T = ids.length;
    const isPunct = tokens.map((t) => PUNCT.test(t.text));
    const { probs } = await attentions(loaded, ids);
    for (let l = 0; l < nLayer; l++) {
      for (let h = 0; h < nHead; h++) {
        const s = at(l, h);
        const base = h * T * T;
        for (let i = 0; i < T; i++) {
          const row = base + i * T;
          if (i > 0) s.prev += probs[l][row + i - 1];
          s.first += probs[l][row];
          s.self += probs[l][row + i];
          let punctKeys = 0;
          for (let j = 0; j < i; j++) {
            if (isPunct[j]) {
              s.punct += probs[l][row + j];
              punctKeys++;
            }
          }
          s.punctBaseline += punctKeys / (i + 1);
        }
      }
    }
    prevRows += T - 1;
    rows += T;
    for (let i = 1; i < T; i++) evenPrev += 1 / (i + 1);
  }

  // Natural sentences said twice: from a token seen before, the weight on what followed it last time(s).
  let sentRows = 0;
  let evenSent = 0;
  for (const text of REPEAT_TEXTS) {
    const ids = loaded.encode(text).map((t) => t.id!);
    const T = ids.length;
    const { probs } = await attentions(loaded, ids);
    for (let i = 0; i < T; i++) {
      const targets: number[] = [];
      for (let j = 0; j + 1 < i; j++) if (ids[j] === ids[i]) targets.push(j + 1);
      if (targets.length === 0) continue;
      sentRows++;
      evenSent += targets.length / (i + 1);
      for (let l = 0; l < nLayer; l++) {
        for (let h = 0; h < nHead; h++) {
          const row = h * T * T + i * T;
          for (const j of targets) at(l, h).sent += probs[l][row + j];
        }
      }
    }
  }

  // Random tokens repeated: induction and duplicate-token attention, and the in-context copy loss.
  const n = INDUCTION_LENGTH;
  let lossFirst = 0;
  let lossSecond = 0;
  for (let k = 0; k < INDUCTION_SEQUENCES; k++) {
    const rand = seeded(1000 + k);
    // ids 256 .. 1023: the first merges BPE learned, so frequent tokens (rare tokens' embeddings are barely
    // trained in a model this small and look alike, which hides any copying)
    const seq = Array.from({ length: n }, () => 256 + Math.floor(rand() * (Math.min(1024, vocabSize - 1) - 256)));
    const ids = [...seq, ...seq];
    const T = ids.length;
    const { probs, logits } = await attentions(loaded, ids, true);
    for (let l = 0; l < nLayer; l++) {
      for (let h = 0; h < nHead; h++) {
        const s = at(l, h);
        const base = h * T * T;
        if (l === 0 && h === 0) for (let i = n; i < T; i++) evenInduct += 1 / (i + 1);
        for (let i = n; i < T; i++) {
          s.induct += probs[l][base + i * T + (i - n + 1)];
          s.dup += probs[l][base + i * T + (i - n)];
        }
      }
    }
    const V = vocabSize;
    const nll = (i: number) => {
      // -log softmax(logits[i])[ids[i+1]]
      const row = logits!.data.subarray(i * V, (i + 1) * V);
      let max = -Infinity;
      for (const x of row) max = Math.max(max, x);
      let sum = 0;
      for (const x of row) sum += Math.exp(x - max);
      return Math.log(sum) + max - row[ids[i + 1]];
    };
    for (let i = 0; i < n - 1; i++) lossFirst += nll(i) / (n - 1);
    for (let i = n; i < T - 1; i++) lossSecond += nll(i) / (n - 1);
  }
  for (const s of heads) {
    s.prev /= prevRows;
    s.first /= rows;
    s.self /= rows;
    s.punct /= rows;
    s.punctBaseline /= rows;
    s.induct /= INDUCTION_SEQUENCES * n;
    s.dup /= INDUCTION_SEQUENCES * n;
    s.sent /= sentRows;
  }
  return {
    heads,
    copyLoss: { first: lossFirst / INDUCTION_SEQUENCES, second: lossSecond / INDUCTION_SEQUENCES },
    evenSpread: { prev: evenPrev / prevRows, induct: evenInduct / (INDUCTION_SEQUENCES * n), sent: evenSent / sentRows },
  };
}

export function formatTable(a: Analysis): string {
  const f = (x: number) => x.toFixed(3).padStart(6);
  const lines = ['head    prev  first   self  punct punct~ induct    dup   sent'];
  for (const s of a.heads)
    lines.push(
      `${`${s.layer}.${s.head}`.padEnd(5)} ${f(s.prev)} ${f(s.first)} ${f(s.self)} ${f(s.punct)} ${f(s.punctBaseline)} ${f(s.induct)} ${f(s.dup)} ${f(s.sent)}`,
    );
  lines.push(
    `even spread over the visible keys: prev ${a.evenSpread.prev.toFixed(3)}, induct ${a.evenSpread.induct.toFixed(3)}, sent ${a.evenSpread.sent.toFixed(3)}`,
  );
  lines.push(`next-token loss on random tokens: first copy ${a.copyLoss.first.toFixed(2)} nats, second copy ${a.copyLoss.second.toFixed(2)} nats`);
  return lines.join('\n');
}

/**
 * The clearest head for each pattern (largest score; punctuation by its excess over the even spread). The
 * figure shows the three whose pattern is strongest relative to an even spread (about 10% on the previous or
 * first token of the evaluation texts, 3% on one key of the 60-token repeats).
 */
export function clearestHeads(a: Analysis): { label: string; head: HeadScores; input: keyof typeof FIGURE_TEXTS; score: string; strength: number }[] {
  const best = (key: (s: HeadScores) => number) => a.heads.reduce((b, s) => (key(s) > key(b) ? s : b));
  const prev = best((s) => s.prev);
  const punct = best((s) => s.punct - s.punctBaseline);
  const first = best((s) => s.first);
  const self = best((s) => s.self);
  const induct = best((s) => s.induct);
  const dup = best((s) => s.dup);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const all = [
    {
      label: 'previous token',
      head: prev,
      input: 'sentence' as const,
      score: `${pct(prev.prev)} on the previous token`,
      strength: prev.prev - a.evenSpread.prev,
    },
    {
      label: 'punctuation',
      head: punct,
      input: 'sentence' as const,
      score: `${pct(punct.punct)} on punctuation (even spread: ${pct(punct.punctBaseline)})`,
      strength: punct.punct - punct.punctBaseline,
    },
    { label: 'current token', head: self, input: 'sentence' as const, score: `${pct(self.self)} on the query's own token`, strength: self.self - 0.1 },
    { label: 'first token', head: first, input: 'sentence' as const, score: `${pct(first.first)} on the first token`, strength: first.first - 0.1 },
    {
      label: 'induction',
      head: induct,
      input: 'repeat' as const,
      score: `${pct(induct.induct)} on the token after the earlier copy`,
      strength: induct.induct - a.evenSpread.induct,
    },
    {
      label: 'earlier copy of the same token',
      head: dup,
      input: 'repeat' as const,
      score: `${pct(dup.dup)} on the same token's earlier copy`,
      strength: dup.dup - a.evenSpread.induct,
    },
  ];
  return all.sort((x, y) => y.strength - x.strength).slice(0, 3);
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The heads of the figure, both on the repeated sentence: the strongest previous-token head (scored on the
 * evaluation texts) and the strongest induction head (scored on the random repeats).
 */
export function figureHeads(a: Analysis): { label: string; head: HeadScores; input: keyof typeof FIGURE_TEXTS; score: string }[] {
  const best = (key: (s: HeadScores) => number) => a.heads.reduce((b, s) => (key(s) > key(b) ? s : b));
  const prev = best((s) => s.prev);
  const induct = best((s) => s.induct);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  return [
    {
      label: 'previous token',
      head: prev,
      input: 'repeat',
      score: `${pct(prev.prev)} on the previous token of the evaluation texts (even spread: ${pct(a.evenSpread.prev)})`,
    },
    {
      label: 'induction',
      head: induct,
      input: 'repeat',
      score: `${pct(induct.induct)} on the token after the earlier copy in random repeats (even spread: ${pct(a.evenSpread.induct)})`,
    },
  ];
}

/** An SVG of the figure's heads: one heatmap each, queries down, keys across, weights on a fixed 0–1 scale. */
export async function figureSvg(loaded: Loaded, a: Analysis): Promise<string> {
  const panels = figureHeads(a);
  const cell = 15;
  const labelW = 78;
  const labelH = 78;
  const titleH = 40;
  const gap = 30;
  const parts: string[] = [];
  let x0 = 10;
  let height = 0;
  for (const p of panels) {
    const tokens = loaded.encode(FIGURE_TEXTS[p.input]);
    const T = tokens.length;
    const { probs } = await attentions(
      loaded,
      tokens.map((t) => t.id!),
    );
    const w = probs[p.head.layer].subarray(p.head.head * T * T, (p.head.head + 1) * T * T);
    const gx = x0 + labelW;
    const gy = titleH + labelH;
    parts.push(`<text x="${x0}" y="16" font-size="14" font-weight="bold">layer ${p.head.layer}, head ${p.head.head}: ${escapeXml(p.label)}</text>`);
    parts.push(`<text x="${x0}" y="32" font-size="11" fill="#444">${escapeXml(p.score)}</text>`);
    for (let i = 0; i < T; i++) {
      const label = escapeXml(tokens[i].display);
      parts.push(`<text x="${gx - 4}" y="${gy + i * cell + cell * 0.75}" font-size="11" text-anchor="end">${label}</text>`);
      parts.push(`<text transform="translate(${gx + i * cell + cell * 0.7},${gy - 4}) rotate(-60)" font-size="11">${label}</text>`);
      for (let j = 0; j < T; j++) {
        const v = j <= i ? w[i * T + j] : 0;
        const shade = Math.round(255 * (1 - Math.min(1, v)));
        const fill = j <= i ? `rgb(${shade},${Math.round(shade * 0.9 + 25)},255)` : '#f2f2f2';
        parts.push(`<rect x="${gx + j * cell}" y="${gy + i * cell}" width="${cell}" height="${cell}" fill="${fill}"/>`);
      }
    }
    parts.push(`<rect x="${gx}" y="${gy}" width="${T * cell}" height="${T * cell}" fill="none" stroke="#888"/>`);
    x0 = gx + T * cell + gap;
    height = Math.max(height, gy + T * cell + 30);
  }
  const note = 'Rows: query token; columns: key token; darker = more weight (fixed 0–1 scale); grey: future keys (causal mask).';
  parts.push(`<text x="10" y="${height - 10}" font-size="11" fill="#444">${escapeXml(note)}</text>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${x0}" height="${height}" viewBox="0 0 ${x0} ${height}" font-family="DejaVu Sans, WenQuanYi Zen Hei, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...parts,
    '</svg>',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = arg('--model') ?? 'media/models/tiny-bilingual';
  const loaded = await loadTinyModel(dir);
  const a = await analyse(loaded);
  if (argv.includes('--json')) console.log(JSON.stringify(a, null, 1));
  else console.log(formatTable(a));
  for (const p of clearestHeads(a)) console.log(`clearest ${p.label} head: ${p.head.layer}.${p.head.head} (${p.score})`);
  const svgPath = arg('--svg');
  const pngPath = arg('--png');
  if (svgPath || pngPath) {
    const svg = await figureSvg(loaded, a);
    if (svgPath) writeFileSync(svgPath, svg);
    if (pngPath) svgToPng(svg, pngPath);
    console.log(`wrote ${[svgPath, pngPath].filter(Boolean).join(' and ')}`);
  }
}

/** Renders the SVG with headless Chromium (Debian's chromium, or $CHROMIUM) at twice the size. */
function svgToPng(svg: string, pngPath: string): void {
  const [, width, height] = /width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
  const dir = mkdtempSync(join(tmpdir(), 'tiny-figure-'));
  const file = join(dir, 'figure.svg');
  writeFileSync(file, svg);
  try {
    execFileSync(
      process.env.CHROMIUM ?? '/usr/bin/chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--hide-scrollbars',
        '--force-device-scale-factor=2',
        `--window-size=${width},${height}`,
        `--screenshot=${resolve(pngPath)}`,
        pathToFileURL(file).href,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e: Error) => {
    console.error(e.message);
    process.exit(1);
  });
}
