// The extension ships esbuild bundles: check that the tokenize module bundles, that GPT-2's vocabulary sits
// behind a dynamic import (so importing the module does not load it), and that the bundled GPT-2 tokenizer works.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const ROOT = join(__dirname, '../../..');
const SRC = join(ROOT, 'src/tokenize');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('tokenize module packaging', () => {
  it('reaches gpt-tokenizer only through dynamic import() and imports nothing from vscode, the DOM or node', () => {
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      const staticImports = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
      for (const spec of staticImports) {
        assert.ok(spec.startsWith('.'), `${file}: static import of ${spec} (only relative imports are allowed here)`);
      }
      assert.doesNotMatch(text, /require\(|\bdocument\.|\bwindow\./, `${file} uses require or the DOM`);
    }
  });

  it('bundles with esbuild and the bundled GPT-2 tokenizer gives GPT-2 ids', async function () {
    this.timeout(60_000);
    const result = await esbuild.build({
      entryPoints: [join(SRC, 'index.ts')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
      absWorkingDir: ROOT,
    });
    const code = result.outputFiles[0].text;
    const mod = { exports: {} as Record<string, unknown> };
    // evaluate the bundle as a CommonJS module
    new Function('module', 'exports', 'require', code)(mod, mod.exports, createRequire(join(ROOT, 'package.json')));
    const { createTokenizer } = mod.exports as typeof import('../../../src/tokenize');
    const gpt2 = await createTokenizer({ kind: 'gpt2' });
    assert.deepEqual(
      gpt2.encode('Hello world').map((t) => t.id),
      [15496, 995],
    );
  });
});
