// One esbuild config for every bundle: extension host (node, `vscode` external), engine worker (node),
// webview (browser IIFE) and CLI (node, with a shebang). Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import { mkdirSync, copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWasm } from './build-wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

/** Files the bundles load at run time, copied next to them (grammar .wasm for the linter). */
function copyRuntimeAssets() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const assets = [
    ['node_modules/web-tree-sitter/web-tree-sitter.wasm', 'media/web-tree-sitter.wasm'],
    ['node_modules/tree-sitter-python/tree-sitter-python.wasm', 'media/tree-sitter-python.wasm'],
  ];
  for (const [from, to] of assets) {
    const src = join(root, from);
    if (!existsSync(src)) throw new Error(`build: ${from} is missing (run npm ci); the linter needs it as ${to}`);
    copyFileSync(src, join(root, to));
  }
}

const common = {
  bundle: true,
  sourcemap: true,
  minify,
  logLevel: 'warning',
  loader: { '.wasm': 'binary' },
};

const node = { ...common, platform: 'node', target: 'node20', format: 'cjs' };

const builds = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { worker: 'src/worker/main.ts' }, outdir: 'dist' },
  // the engine worker's kernel helper thread, started by dist/worker.js from the file next to it
  { ...node, entryPoints: { 'kernel-helper': 'src/worker/kernel-helper.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { 'lint-worker': 'src/worker/lint-worker.ts' }, outdir: 'dist' }, // the editor's linter, off the extension host thread
  { ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  { ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: { webview: 'webview/main.ts' }, outdir: 'dist' },
];

await buildWasm({ quiet: true }); // WebAssembly kernels first: the bundles import the generated modules
copyRuntimeAssets();
if (watch) {
  for (const b of builds) (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build({ ...b, absWorkingDir: root })));
}
