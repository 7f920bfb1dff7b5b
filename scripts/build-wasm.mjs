// Assembles the WebAssembly kernels from their text source (src/engine/kernels/wasm/*.wat) with wabt and
// writes each as a TypeScript module holding the bytes in base64 (src/engine/kernels/generated/*-wasm.ts),
// so the engine gets them without file-system access (in the extension host, the worker, the CLI and tsx
// tests alike). Writes only when the output changes. Usage: node scripts/build-wasm.mjs
//
// A source may also declare variants, one line each, in one of three forms:
//   ;; variant <name>: <text> => <replacement>
//       <name> is the source with <text> (which must occur exactly once) replaced;
//   ;; variant <name>: /<regex>/ x<count> => <replacement>
//       <name> is the source with every match of <regex> (exactly <count> of them) replaced; the replacement
//       may use $1, $2... for the regex's groups;
//   ;; variant <name>: <other> + <other>
//       <name> applies the edits of the named variants in turn.
// The SIMD kernel uses these for its shared-memory module (threads proposal) and its fused multiply-add
// module (relaxed SIMD). test/unit/kernels-setup.ts reads the same lines (the variant names).
// A module using relaxed SIMD is not checked against this Node.js (Node 20 only has it behind a V8 flag);
// the engine checks it with WebAssembly.validate at run time (src/engine/kernels/simd-module.ts).
import { readFileSync, writeFileSync, mkdirSync, readdirSync, existsSync, utimesSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import initWabt from 'wabt';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(root, 'src/engine/kernels/wasm');
const outDir = join(root, 'src/engine/kernels/generated');
/** wabt features: 128-bit SIMD, the threads proposal for shared memories, relaxed SIMD for fused multiply-add. */
const FEATURES = { simd: true, threads: true, relaxed_simd: true };
const VARIANT_LINE = /^;; variant ([a-z0-9-]+): (.+)$/gm;
const REPLACE = /^(.+?) => (.+)$/;
const REGEX_REPLACE = /^\/(.+)\/ x(\d+) => (.+)$/;
const COMBINE = /^([a-z0-9-]+)(?: \+ ([a-z0-9-]+))+$/;

/** `simd-kernel` -> `simdKernel` */
function camel(name) {
  return name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** The modules one .wat source yields: [name, text] for itself and for each declared variant. */
function modulesOf(file, text) {
  const code = text.replace(/^;;.*$/gm, ''); // the directive lines contain their own patterns: count outside them
  /** name -> function editing one code line's text (applied to every non-comment line) */
  const edits = new Map();
  for (const [, name, spec] of text.matchAll(VARIANT_LINE)) {
    let edit;
    const regex = REGEX_REPLACE.exec(spec);
    const combine = COMBINE.exec(spec);
    if (regex) {
      const [, pattern, expected, to] = regex;
      const count = (code.match(new RegExp(pattern, 'g')) ?? []).length;
      if (count !== Number(expected)) throw new Error(`${file}: variant ${name}: /${pattern}/ matches ${count} times, expected ${expected}`);
      const global = new RegExp(pattern, 'g');
      edit = (line) => line.replace(global, to);
    } else if (REPLACE.test(spec)) {
      const [, from, to] = REPLACE.exec(spec);
      const count = code.split(from).length - 1;
      if (count !== 1) throw new Error(`${file}: variant ${name}: '${from}' occurs ${count} times in the module, expected once`);
      edit = (line) => line.replace(from, () => to);
    } else if (combine) {
      const parts = spec.split(' + ').map((part) => {
        const known = edits.get(part);
        if (!known) throw new Error(`${file}: variant ${name}: '${part}' is not a variant declared above it`);
        return known;
      });
      edit = (line) => parts.reduce((acc, part) => part(acc), line);
    } else {
      throw new Error(`${file}: variant ${name}: cannot read '${spec}'`);
    }
    edits.set(name, edit);
  }
  const modules = [[basename(file, '.wat'), text]];
  for (const [name, edit] of edits) {
    const lines = text.split('\n').map((line) => (line.startsWith(';;') ? line : edit(line)));
    modules.push([name, lines.join('\n')]);
  }
  return modules;
}

function assemble(wabt, file, text) {
  const module = wabt.parseWat(file, text, FEATURES);
  try {
    module.resolveNames();
    module.validate(FEATURES);
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

export async function buildWasm({ quiet = false } = {}) {
  const wabt = await initWabt();
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const file of readdirSync(sourceDir)
    .filter((f) => f.endsWith('.wat'))
    .sort()) {
    const text = readFileSync(join(sourceDir, file), 'utf8');
    for (const [name, moduleText] of modulesOf(file, text)) {
      const bytes = assemble(wabt, name === basename(file, '.wat') ? file : `${file} (${name})`, moduleText);
      const relaxed = moduleText.includes('relaxed_');
      if (!relaxed && !WebAssembly.validate(bytes)) throw new Error(`${file} (${name}): this Node.js rejects the assembled module`);
      const base64 = Buffer.from(bytes).toString('base64');
      const source =
        `// Generated by scripts/build-wasm.mjs from src/engine/kernels/wasm/${file}` +
        `${name === basename(file, '.wat') ? '' : ` (variant ${name})`}. Do not edit.\n` +
        `/** The assembled module (${bytes.length} bytes), base64. */\n` +
        `export const ${camel(name)}Base64 =\n  '${base64}';\n`;
      const outFile = join(outDir, `${name}-wasm.ts`);
      if (!existsSync(outFile) || readFileSync(outFile, 'utf8') !== source) {
        writeFileSync(outFile, source);
        written.push(outFile);
      } else {
        const now = new Date();
        utimesSync(outFile, now, now); // up to date with its source (test/unit/kernels-setup.ts compares times)
      }
      if (!quiet) console.log(`wasm: ${file} -> ${name}: ${bytes.length} bytes${written.includes(outFile) ? '' : ' (unchanged)'}`);
    }
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWasm();
}
