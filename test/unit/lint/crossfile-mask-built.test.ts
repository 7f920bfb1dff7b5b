// A mask that crosses more than one file boundary keeps the place it was built (MaskInfo.builtIn): ATT002 in the
// model gets a related location in the builder's file, not only at the call in the file that passed the mask on.
// Two forms: the caller gets the mask from the builder and hands it to the model's forward (the finding reaches
// the model through its importer's call), and a helper of a second file that returns the builder's mask, called
// by the model itself. Each with its fixed form (the mask built True at padding: no finding).
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);
/** The related locations in other files: `path:line:column message`. */
const foreign = (f: Finding | undefined): string[] =>
  (f?.related ?? []).filter((r) => r.path !== undefined).map((r) => `${r.path}:${r.line}:${r.column} ${r.message}`);

// The builder: True at real tokens (`!=`), or at padding (`==`) in the fixed form.
const batches = (op: string) => `import torch

def pad_batch(ids, pad_id=0):
    # ids: (B, S) token ids
    keep = ids ${op} pad_id  # (B, S)
    return ids, keep
`;

const model = `import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, d_model=128, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(1000, d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, ids, pad_mask):
        x = self.embed(ids)  # (B, S, D)
        out, _ = self.attn(x, x, x, key_padding_mask=pad_mask)
        return out
`;

const runner = `from batches import pad_batch
from model import Encoder


def run(raw):
    encoder = Encoder()
    ids, mask = pad_batch(raw)
    return encoder(ids, mask)
`;

describe('cross-file: a mask keeps the place it was built as it crosses files', () => {
  it('builder, model and caller: ATT002 in the model links the comparison in the builder and the call in the caller', async () => {
    const fs = await lint({ 'batches.py': batches('!='), 'model.py': model, 'run.py': runner }, 'model.py');
    assert.deepEqual(codes(fs), ['ATT002@13']);
    assert.match(fs[0].message, /from `pad_batch` in batches\.py:5\b.*from `run` in run\.py:8\b/);
    assert.deepEqual(foreign(fs[0]), [
      'run.py:8:12 `Encoder.forward` is called here, in a file that imports this one',
      'batches.py:5:12 the mask is built in `pad_batch` (batches.py:5)',
    ]);
  });

  it('the same project with the mask built True at padding: silent', async () => {
    assert.deepEqual(await lint({ 'batches.py': batches('=='), 'model.py': model, 'run.py': runner }, 'model.py'), []);
  });

  // A helper in a second file returns the builder's mask (first seen there at its call of the builder); the model
  // calls the helper.
  const helpers = `from batches import pad_batch


def make_mask(raw):
    _, keep = pad_batch(raw)
    return keep
`;
  const callerModel = `import torch.nn.functional as F
from helpers import make_mask


def attend(q, k, v, raw):
    mask = make_mask(raw)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.logical_not())
`;

  it("a helper returning another file's mask: related locations at the builder's comparison and at the helper's call of the builder", async () => {
    const fs = await lint({ 'batches.py': batches('!='), 'helpers.py': helpers, 'attend.py': callerModel }, 'attend.py');
    assert.deepEqual(codes(fs), ['ATT002@7']);
    assert.match(fs[0].message, /batches\.py:5\b.*helpers\.py:5\b/);
    assert.deepEqual(foreign(fs[0]), [
      'batches.py:5:12 the mask is built in `pad_batch` (batches.py:5)',
      'helpers.py:5:15 the mask is built in `make_mask` (helpers.py:5)',
    ]);
  });

  it('the helper over a builder True at padding: silent', async () => {
    assert.deepEqual(await lint({ 'batches.py': batches('=='), 'helpers.py': helpers, 'attend.py': callerModel }, 'attend.py'), []);
  });
});
