// `attention-inspector record --format json` on every program in programs/, with each interpreter that has
// torch: Debian bookworm's /usr/bin/python3 (torch 1.13) and, when scripts/setup-torch-sid.sh has built it, the
// sid root's (torch 2.14 + transformers). The findings must be exactly the `# expect: CODE` comments.
// Run by `npm run test:record` (after the setup scripts), not by test:unit: it needs real PyTorch.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runCli } from '../../src/cli/main';

const ROOT = join(__dirname, '..', '..');
const PROGRAMS = join(__dirname, 'programs');
const SID_PYTHON = join(ROOT, '.cache', 'torch-sid', 'bin', 'python3');

interface Interpreter {
  name: string;
  path: string;
  torch2: boolean;
}

const INTERPRETERS: Interpreter[] = [{ name: 'torch 1.13 (Debian bookworm)', path: process.env.RECORD_PYTHON ?? '/usr/bin/python3', torch2: false }];
if (existsSync(join(ROOT, '.cache', 'torch-sid', 'installed.txt'))) INTERPRETERS.push({ name: 'torch 2.14 (Debian sid root)', path: SID_PYTHON, torch2: true });

interface JsonOutput {
  calls: {
    id: number;
    kind: string;
    path: string | null;
    line: number | null;
    module: string | null;
    shapes: Record<string, number[] | null>;
    dtype: string | null;
  }[];
  diagnostics: { path: string; line: number; column: number; code: string; severity: string; message: string }[];
  program: { exitCode: number };
}

async function record(python: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['record', '--python', python, ...args], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function expectations(source: string): { expected: string[]; exit: number; torch2: boolean } {
  const expected: string[] = [];
  source.split('\n').forEach((line, i) => {
    const m = /# expect: (ATT\d{3}(?:, *ATT\d{3})*)\s*$/.exec(line);
    if (m) for (const code of m[1].split(/, */)) expected.push(`${i + 1}:${code}`);
  });
  const exit = Number(/^# exit: (\d+)$/m.exec(source)?.[1] ?? 0);
  return { expected: expected.sort(), exit, torch2: /^# requires: torch2$/m.test(source) };
}

const programs = readdirSync(PROGRAMS)
  .filter((f) => f.endsWith('.py') && f !== 'attn_lib.py')
  .sort();

for (const interp of INTERPRETERS) {
  describe(`record CLI with ${interp.name}`, function () {
    this.timeout(300_000);
    for (const file of programs) {
      const path = join(PROGRAMS, file);
      const { expected, exit, torch2 } = expectations(readFileSync(path, 'utf8'));
      if (torch2 && !interp.torch2) continue; // the API it calls does not exist in torch 1.13
      it(`${file}: ${expected.length ? expected.join(' ') : 'nothing to report'}`, async () => {
        const rel = relative(process.cwd(), path).split('\\').join('/');
        const r = await record(interp.path, ['--format', 'json', '--', rel]);
        const out = JSON.parse(r.stdout) as JsonOutput;
        assert.equal(out.program.exitCode, exit, r.stderr);
        assert.ok(out.calls.length > 0, `no attention call was recorded\n${r.stderr}`);
        for (const c of out.calls) assert.deepEqual(Object.keys(c), ['id', 'kind', 'path', 'line', 'module', 'shapes', 'dtype']);
        const got = out.diagnostics.map((d) => `${d.line}:${d.code}`).sort();
        assert.deepEqual(got, expected, JSON.stringify(out.diagnostics, null, 2));
        for (const d of out.diagnostics) {
          assert.equal(d.path, rel);
          assert.deepEqual(Object.keys(d), ['path', 'line', 'column', 'code', 'severity', 'message']);
          assert.ok(d.column >= 1 && d.message.length > 20);
        }
        assert.equal(r.code, exit !== 0 ? 3 : expected.length > 0 ? 1 : 0);
      });
    }

    it('a program without attention: exit 0, no calls, and the text output says so', async () => {
      const r = await record(interp.path, ['--', 'test/python/no_attention.py']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /No attention calls were recorded/);
      assert.match(r.stdout, /a classifier, no attention/);
    });
  });
}

describe('record CLI usage', () => {
  it('exits 2 with a message on bad usage', async () => {
    for (const args of [
      [],
      ['--format', 'xml', '--', 'a.py'],
      ['--max-calls', '0', '--', 'a.py'],
      ['--pytest', 'x', '--', 'a.py'],
      ['--', 'does/not/exist.py'],
    ]) {
      const r = await record('/usr/bin/python3', args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /attention-inspector record: /);
    }
  });

  it('exits 2 when the interpreter cannot be run or writes no trace', async () => {
    const missing = await record('/nonexistent/python3', ['--', 'test/python/no_attention.py']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot run the interpreter '\/nonexistent\/python3'/);
    const noTorch = await record('/bin/false', ['--', 'test/python/no_attention.py']);
    assert.equal(noTorch.code, 2);
    assert.match(noTorch.stderr, /wrote no trace .*PyTorch >= 1\.13/);
  });
});
