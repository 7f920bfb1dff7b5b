// Part of `npm run typecheck`: TypeScript's noUncheckedIndexedAccess (tsconfig.strict-index.json) on the code that
// reads untrusted or external data by index: the message protocols, the weight loaders, the tokenizers, the
// linter (the user's source code), the CLI, the worker threads, the webview, and the engine and models (config
// parsing and family detection, the model registry, session bookkeeping, traces). An index read there is
// `T | undefined` and the code must check it (a clear error for bad input, or an iteration that cannot run past
// the end; in the linter, whose analysis must not fail on any source, a guard or a `??` default that keeps its
// output as it was).
// Not covered, by design: the numeric kernels listed in KERNELS (gemm/softmax/RoPE/attention inner loops, wasm
// glue, tensor element loops, the seeded generators' state arrays), whose typed-array loops index within bounds
// they have just checked, in hot loops where a per-element check would cost time and say nothing.
// tsc checks every file a covered file imports, so errors are kept only for the covered paths below.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const COVERED = [
  'src/protocol/',
  'src/weights/',
  'src/tokenize/',
  'src/lint/',
  'src/host/',
  'src/record/',
  'src/engine/',
  'src/models/',
  'src/cli/',
  'src/worker/',
  'webview/',
];
/** Files inside the covered folders that are typed-array kernels themselves: table lookups, conversion loops, and
 * the tokenizers' BPE merge loop and its heap (Int32Arrays), the Unigram Viterbi search and its piece trie (an
 * open-addressing table of typed arrays): checking their reads cost 10-40% of the time of those tokenizers. */
const KERNELS = [
  'src/weights/crc32.ts',
  'src/weights/dtype.ts',
  'src/weights/strided.ts',
  'webview/heatmap-pixels.ts',
  'webview/downsample.ts',
  'webview/colour-scale.ts',
  'src/tokenize/bpe.ts',
  'src/tokenize/merge-queue.ts',
  'src/tokenize/hf/unigram.ts',
  'src/tokenize/hf/piece-trie.ts',
  // src/engine: the compute kernels and their glue
  'src/engine/kernels/ts-kernel.ts', // the TypeScript gemm's blocked inner loops
  'src/engine/kernels/parallel-helper.ts', // the worker side of the parallel gemm: row-block loops over shared buffers
  'src/engine/kernels/wasm-kernel.ts', // wasm glue: copies operands in and out of the module's memory
  'src/engine/kernels/base64.ts', // wasm glue: decodes the embedded module's bytes through a lookup table
  'src/engine/ops/matmul.ts', // batched gemm loops over strided operands
  'src/engine/ops/linear.ts', // bias-add loops around the gemm
  'src/engine/ops/elementwise.ts', // broadcast element loops
  'src/engine/ops/softmax.ts', // the softmax row kernel
  'src/engine/ops/softcap.ts', // cap·tanh(x / cap) over every element
  'src/engine/ops/activations.ts', // per-element activation functions
  'src/engine/ops/rope.ts', // the RoPE rotation's inner loops over (position, pair)
  'src/engine/tensor.ts', // tensor element loops: contiguous copies, strided gathers, transposes
  'src/engine/attention-core.ts', // the attention inner loops: scores, mask, softmax, context per row block
  'src/engine/flash.ts', // the blocked online-softmax attention loop
  'src/engine/trace/build-mask.ts', // the L×S loop that folds a mask tensor into the additive bias
  'src/engine/trace/scale-mask.ts', // the trace's scale, soft-cap and mask loop over the L×S scores
  'src/engine/trace/stats.ts', // per-element statistics over the L×S scores and probabilities (Welford, entropy, row sums)
  'src/engine/random/mt19937.ts', // the Mersenne Twister's state array
  'src/engine/random/torch-generator.ts', // the torch generator's state arrays and Box-Muller pairs
  'src/engine/random/float32.ts', // float32 bit conversions through a shared typed-array view
  'src/engine/random/seeded-attention.ts', // the 1/sqrt(d) element loop over the seeded scores
  // src/models: the per-model tensor loops
  'src/models/row-loops.ts', // residual and bias adds, scaling, the GLU product, the scatter into the head layout
  'src/models/activations.ts', // per-element activation over a layer's output
  'src/models/rms-norm.ts', // the RMSNorm row loop
  'src/models/head-stream.ts', // the per-band row sums of a streamed head (counting-sort index arrays)
  'src/models/lazy-attention.ts', // the lazy attention's per-head row loops (mask, padding, context)
  'src/models/grouped-attention.ts', // the grouped-query attention's per-head row-block loops
  // src/record: the recorder's loops over recorded tensors
  'src/record/row-loops.ts', // broadcast and transposed copies, mask arrays, block means, row sums, the scale regression, pair scans
];
/**
 * Not covered yet: each file with the number of index reads it still has to check. Fix a file's reads, then remove
 * it here (the script fails when a listed file has no errors left, so this list only shrinks, and when a file's
 * count is not its real number of errors, so the counts stay true: fix the reads or set the number it prints).
 */
const NOT_YET = new Map([]);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', 'tsconfig.strict-index.json'], { encoding: 'utf8' });
if (result.error) throw result.error;
const errors = result.stdout.split('\n').filter((line) => / error TS\d+:/.test(line));
const fileOf = (line) => line.slice(0, line.indexOf('('));
const covered = errors.filter((line) => COVERED.some((dir) => line.startsWith(dir)) && !KERNELS.includes(fileOf(line)) && !NOT_YET.has(fileOf(line)));
for (const line of covered) console.error(line);
const realCounts = new Map([...NOT_YET.keys()].map((file) => [file, errors.filter((line) => fileOf(line) === file).length]));
const done = [...realCounts].filter(([, real]) => real === 0).map(([file]) => file);
for (const file of done) console.error(`${file} has no unchecked index reads left: remove it from NOT_YET in scripts/typecheck-strict-index.mjs`);
const miscounted = [...realCounts].filter(([file, real]) => real > 0 && real !== NOT_YET.get(file));
for (const [file, real] of miscounted) {
  console.error(`${file} has ${real} unchecked index reads, NOT_YET in scripts/typecheck-strict-index.mjs says ${NOT_YET.get(file)}: set it to ${real}`);
}
if (covered.length > 0 || done.length > 0 || miscounted.length > 0) {
  console.error(
    `\nnoUncheckedIndexedAccess: ${covered.length} error(s) in ${COVERED.join(', ')} (tsconfig.strict-index.json); NOT_YET: ${done.length} file(s) done, ${miscounted.length} count(s) wrong`,
  );
  process.exit(1);
}
if (result.status !== 0 && errors.length === 0) {
  console.error(result.stdout, result.stderr);
  process.exit(result.status ?? 1);
}
const left = [...realCounts.values()].reduce((a, b) => a + b, 0);
console.log(
  `noUncheckedIndexedAccess: no errors in ${COVERED.join(', ')} (${KERNELS.length} kernel files left out; ${NOT_YET.size} files, ${left} reads, not yet)`,
);
for (const [file, real] of realCounts) console.log(`  not yet: ${file} ${real} reads`);
