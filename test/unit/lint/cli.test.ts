// `attention-inspector lint`: arguments, directory walking, the three output formats and the exit codes,
// run in-process through the same dispatcher as dist/cli.js.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, SUBCOMMANDS } from '../../../src/cli/main';
import { parseLintArgs } from '../../../src/cli/lint';

const BUGGY = `import torch.nn.functional as F


def attend(q, k, v, input_ids, pad_id):
    pad = input_ids == pad_id
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=pad[:, None, None, :])
    w = F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)
    return out, w @ v
`;
const CLEAN = `def add(a, b):\n    return a + b\n`;

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('attention-inspector lint (CLI)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-cli-'));
    mkdirSync(join(dir, 'pkg', 'node_modules'), { recursive: true });
    mkdirSync(join(dir, '.venv'), { recursive: true });
    writeFileSync(join(dir, 'pkg', 'buggy.py'), BUGGY);
    writeFileSync(join(dir, 'pkg', 'clean.py'), CLEAN);
    writeFileSync(join(dir, 'pkg', 'node_modules', 'skipped.py'), BUGGY);
    writeFileSync(join(dir, '.venv', 'skipped.py'), BUGGY);
    writeFileSync(join(dir, 'pkg', 'readme.txt'), BUGGY);
    writeFileSync(
      join(dir, 'pkg', 'nb.ipynb'),
      JSON.stringify({
        cells: [
          { cell_type: 'markdown', source: ['x'], metadata: {} },
          { cell_type: 'code', source: BUGGY, metadata: {}, outputs: [], execution_count: null },
        ],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    writeFileSync(join(dir, 'broken.ipynb'), '{"cells": [');
    writeFileSync(join(dir, 'junk.py'), Buffer.from([0, 1, 2, 255, 254, 10, 40, 40]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('parses options (with = or a separate value) and rejects bad ones', () => {
    assert.deepEqual(parseLintArgs(['--format=json', '--select', 'ATT001,att003', '--ignore', 'ATT00', 'a.py', 'b']), {
      format: 'json',
      options: { select: ['ATT001', 'ATT003'], ignore: ['ATT00'] },
      paths: ['a.py', 'b'],
      help: false,
    });
    assert.throws(() => parseLintArgs(['--format', 'xml', 'a.py']), /--format must be text, json or sarif/);
    assert.throws(() => parseLintArgs(['--select', 'ATT009', 'a.py']), /unknown rule code 'ATT009'/);
    assert.throws(() => parseLintArgs(['--frobnicate', 'a.py']), /unknown option/);
    assert.throws(() => parseLintArgs([]), /no PATH/);
  });

  it('lints a file: text output, exit 1', async () => {
    const r = await run('lint', join(dir, 'pkg', 'buggy.py'));
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trim().split('\n');
    const findings = lines.filter((l) => !l.startsWith(' '));
    assert.match(findings[0], /buggy\.py:6:\d+: ATT002 /);
    assert.match(findings[1], /buggy\.py:7:\d+: ATT001 /);
    assert.match(findings[2], /^Found 2 problems in 1 file/);
    // The evidence is indented under its finding: the mask built on line 5 under ATT002.
    const evidence = lines.slice(1, lines.indexOf(findings[1]));
    assert.ok(
      evidence.some((l) => /^ {4}\S*buggy\.py:5:11: the mask is built here/.test(l)),
      evidence.join('\n'),
    );
  });

  it('exit 0 and a clean message when nothing is found', async () => {
    const r = await run('lint', join(dir, 'pkg', 'clean.py'));
    assert.equal(r.code, 0);
    assert.match(r.out, /All checks passed \(1 file\)/);
  });

  it('walks directories (.py and .ipynb, skipping node_modules and hidden folders) and emits the JSON array', async () => {
    const r = await run('lint', '--format', 'json', join(dir, 'pkg'));
    assert.equal(r.code, 1, r.err);
    type Related = { path: string; cell?: number; line: number; column: number; endLine?: number; endColumn?: number; message: string };
    const arr = JSON.parse(r.out) as {
      path: string;
      cell?: number;
      line: number;
      column: number;
      endLine: number;
      endColumn: number;
      code: string;
      severity: string;
      message: string;
      related?: Related[];
    }[];
    assert.deepEqual([...new Set(arr.map((f) => f.path.split('/').pop()))].sort(), ['buggy.py', 'nb.ipynb']);
    for (const f of arr) {
      assert.deepEqual(
        Object.keys(f).filter((k) => k !== 'cell' && k !== 'related'),
        ['path', 'line', 'column', 'endLine', 'endColumn', 'code', 'severity', 'message'],
      );
      assert.ok(f.line >= 1 && f.column >= 1);
      for (const rel of f.related ?? []) {
        assert.equal(rel.path, f.path, "evidence in the same file carries the finding's path");
        assert.ok(rel.line >= 1 && rel.column >= 1 && rel.message.length > 0);
      }
    }
    const nb = arr.filter((f) => f.path.endsWith('nb.ipynb'));
    assert.ok(
      nb.every((f) => f.cell === 1),
      'notebook findings name their cell (all cells counted)',
    );
    // ATT002 at the SDPA call (line 6): the mask was built on line 5, column 11 (`input_ids == pad_id`).
    for (const file of ['buggy.py', 'nb.ipynb']) {
      const att002 = arr.find((f) => f.code === 'ATT002' && f.path.endsWith(file));
      assert.ok(att002, file);
      const built = att002.related?.find((x) => /mask is built here/.test(x.message));
      assert.deepEqual(
        built && { line: built.line, column: built.column, endLine: built.endLine, endColumn: built.endColumn, cell: built.cell },
        { line: 5, column: 11, endLine: 5, endColumn: 30, cell: att002.cell },
        JSON.stringify(att002.related),
      );
      const att001 = arr.find((f) => f.code === 'ATT001' && f.path.endsWith(file));
      // ATT001 at dim=-2 (line 7): the product with the values is on line 8.
      assert.ok(
        att001?.related?.some((x) => x.line === 8 && /summed over axis -1/.test(x.message)),
        JSON.stringify(att001?.related),
      );
    }
  });

  it('emits SARIF 2.1.0 with rules and results', async () => {
    const r = await run('lint', '--format', 'sarif', '--select', 'ATT001', join(dir, 'pkg', 'buggy.py'));
    assert.equal(r.code, 1);
    const sarif = JSON.parse(r.out);
    assert.equal(sarif.version, '2.1.0');
    const run0 = sarif.runs[0];
    assert.equal(run0.tool.driver.name, 'attention-inspector');
    assert.deepEqual(
      run0.tool.driver.rules.map((x: { id: string }) => x.id),
      ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008', 'ATT000'],
    ); // ATT000: not analysed
    assert.equal(run0.results.length, 1);
    const res = run0.results[0];
    assert.equal(res.ruleId, 'ATT001');
    assert.equal(res.level, 'error');
    assert.equal(res.locations[0].physicalLocation.region.startLine, 7);
    assert.match(res.locations[0].physicalLocation.artifactLocation.uri, /buggy\.py$/);
    // SARIF 2.1.0 relatedLocations: ids unique within the result, a message each, the same artifact.
    const related = res.relatedLocations as {
      id: number;
      message: { text: string };
      physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
    }[];
    assert.ok(Array.isArray(related) && related.length > 0);
    assert.equal(new Set(related.map((x) => x.id)).size, related.length);
    for (const x of related) {
      assert.ok(Number.isInteger(x.id) && x.id >= 0 && x.message.text.length > 0);
      assert.equal(x.physicalLocation.artifactLocation.uri, res.locations[0].physicalLocation.artifactLocation.uri);
    }
    assert.ok(
      related.some((x) => x.physicalLocation.region.startLine === 8),
      'the product with the values',
    );
  });

  it('reports unreadable input with exit 2 and still lints the rest', async () => {
    const r = await run('lint', '--format', 'json', join(dir, 'broken.ipynb'), join(dir, 'missing.py'), join(dir, 'pkg', 'buggy.py'), join(dir, 'junk.py'));
    assert.equal(r.code, 2);
    assert.match(r.err, /broken\.ipynb: not valid JSON/);
    assert.match(r.err, /missing\.py: cannot read \(ENOENT\)/);
    assert.equal(JSON.parse(r.out).length, 2, 'buggy.py was still linted');
  });

  it('prints usage with exit 2 for unknown subcommands and flags, 0 for --help', async () => {
    assert.equal((await run('frobnicate')).code, 2);
    assert.match((await run('frobnicate')).err, /unknown command 'frobnicate'[\s\S]*lint/);
    assert.equal((await run()).code, 2);
    assert.equal((await run('lint', '--nope', 'x')).code, 2);
    const help = await run('lint', '--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /--format text\|json\|sarif/);
    assert.equal((await run('--help')).code, 0);
    assert.deepEqual(SUBCOMMANDS.map((s) => s.name).slice(0, 1), ['lint']);
  });
});
