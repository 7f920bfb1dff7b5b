// A cross-file finding in a real VS Code (code-server + Chromium): opening examples/crossfile/model.py shows its
// three findings whose evidence is in the other files of the folder, and the Problems view lists each one's
// related location in that file (file, line and column under the problem), as the hover does. Expected
// positions are found in the files' own text, never read from the editor.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProblemRow } from './driver/workbench';
import { useWorkbench } from './session';
import { repoRoot } from './support/paths';
import { positionOf } from './support/text';

const SOURCE = 'attention-inspector';
const FOLDER = 'crossfile';
/** How long the first lint of a file (with the workspace's other files read for it) may take under load. */
const PUBLISH_MS = 120_000;

const read = (name: string) => readFileSync(join(repoRoot, 'examples', FOLDER, name), 'utf8');

const ours = (rows: ProblemRow[]) => rows.filter((r) => r.file === 'model.py' && r.source === SOURCE);
const describeRows = (rows: ProblemRow[]) =>
  JSON.stringify(rows.map((r) => `${r.code} ${r.line}:${r.column} ${(r.related ?? []).map((x) => `${x.file}:${x.line}:${x.column}`).join(' ')}`));

describe('the linter in VS Code: findings whose evidence is in another file', function () {
  this.timeout(300_000);
  const session = useWorkbench({ folder: 'examples' });

  it('lists the related location in the other file (file, line, column) under each finding, and in its hover', async function () {
    const workbench = session.workbench;
    const model = read('model.py');
    const train = read('train.py');
    const generate = read('generate.py');
    const data = read('data.py');
    const maskUse = positionOf(model, 'key_padding_mask=pad_mask', 'pad_mask)');
    const passed = positionOf(train, 'encoder(ids.cuda(), mask.cuda())', 'encoder(');
    const built = positionOf(data, 'mask = ids != PAD_ID', 'ids != PAD_ID');
    const scaler = positionOf(train, 'GradScaler()', 'GradScaler');
    const joined = positionOf(generate, 'k = torch.cat((past_k, k)', 'torch.cat');
    const called = positionOf(generate, 'out = self.attend(q, k, v)', 'self.attend(');

    await workbench.openFile(`${FOLDER}/model.py`);
    const rows = ours(
      await workbench.waitForProblems(
        (r) => ['ATT002', 'ATT007', 'ATT008'].every((code) => ours(r).some((row) => row.code === code && (row.related ?? []).length > 0)),
        'the three findings of model.py with their related locations',
        PUBLISH_MS,
      ),
    );
    const row = (code: string) => rows.find((r) => r.code === code)!;
    const inFile = (code: string, file: string) => (row(code).related ?? []).filter((r) => r.file === file);

    // ATT002: the mask the training loop passes; the message names where collate builds it.
    const att002 = row('ATT002');
    assert.deepEqual([att002.line, att002.column], [maskUse.line, maskUse.column], describeRows(rows));
    assert.match(att002.message, new RegExp(`${FOLDER}/data\\.py:${built.line}\\b`));
    const call = inFile('ATT002', 'train.py');
    assert.deepEqual(
      call.map((r) => [r.file, r.line, r.column]),
      [['train.py', passed.line, passed.column]],
      describeRows(rows),
    );
    assert.match(call[0].message, /`Encoder\.forward` is called here, in a file that imports this one/);
    // ... and where collate builds the mask, in data.py: a related location too (the comparison).
    const builtIn = inFile('ATT002', 'data.py');
    assert.deepEqual(
      builtIn.map((r) => [r.file, r.line, r.column]),
      [['data.py', built.line, built.column]],
      describeRows(rows),
    );
    assert.match(builtIn[0].message, new RegExp(`the mask is built in \`collate\` \\(${FOLDER}/data\\.py:${built.line}\\)`));

    // ATT007: the trainer that runs the model in float16.
    const precision = inFile('ATT007', 'train.py');
    assert.deepEqual(
      precision.map((r) => [r.file, r.line]),
      [['train.py', scaler.line]],
      describeRows(rows),
    );
    assert.match(
      row('ATT007').message,
      new RegExp(`this file runs in half precision \\(set at ${FOLDER}/train\\.py:${scaler.line}, in a file that imports it\\)`),
    );

    // ATT008: the cache joined to the keys, and the call, both in generate.py.
    assert.deepEqual(
      inFile('ATT008', 'generate.py').map((r) => [r.file, r.line, r.column]),
      [
        ['generate.py', joined.line, joined.column],
        ['generate.py', called.line, called.column],
      ],
      describeRows(rows),
    );

    // The hover on the finding lists the same related location, as `file(line, column): message`.
    const hover = await workbench.hover({ line: maskUse.line, column: maskUse.column });
    assert.ok(hover.includes(`train.py(${passed.line}, ${passed.column}): `), hover);
    assert.ok(hover.includes(`data.py(${built.line}, ${built.column}): `), hover);
    assert.deepEqual(await workbench.extensionHostErrors(), []);
  });
});
