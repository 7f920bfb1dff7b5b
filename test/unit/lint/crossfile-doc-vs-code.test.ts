// Code outranks prose across files. A module's forward documents what its mask parameter means ("pad_mask: (B, S)
// bool, True at padding"); the file that builds and calls the module passes a mask whose construction shows the
// other meaning (a keep mask: `ids != pad_id`, a tokenizer's attention_mask). The caller's code decides: ATT002 at
// the module's use, naming the caller. Where the caller's mask polarity is unknown, the documentation stands (and
// agrees with the consumer: silent). The fixed form of each: the caller builds the mask True at padding.
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

// The module documents its mask parameter in the forward's docstring, True at padding, as key_padding_mask wants.
const encoder = (doc: string) => `import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d_model=256, n_heads=8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        """
        x: (B, S, D)
        mask: ${doc}
        """
        h, _ = self.attn(x, x, x, key_padding_mask=mask)
        return self.norm(x + h)
`;

const padCaller = (op: string) => `import torch
from block import Block

PAD = 0


def encode(ids, embed):
    block = Block()
    x = embed(ids)
    mask = ids ${op} PAD
    return block(x, mask)
`;

const tokenizerCaller = (expr: string) => `from block import Block


def encode(texts, tokenizer, embed):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    x = embed(enc["input_ids"])
    layer = Block()
    return layer(x, ${expr})
`;

describe("cross-file: a caller's mask construction outranks the module's documented mask meaning", () => {
  const doc = '(B, S) bool, True at padding';

  it('documented True at padding, caller passes `ids != PAD` (True at real tokens): ATT002 at the key_padding_mask', async () => {
    const fs = await lint({ 'block.py': encoder(doc), 'train.py': padCaller('!=') }, 'block.py');
    assert.deepEqual(codes(fs), ['ATT002@16']);
    assert.match(fs[0].message, /train\.py/);
  });

  it('the caller inverts a padding comparison, `~(ids == PAD)` (True at real tokens): ATT002', async () => {
    const caller = padCaller('==').replace('mask = ids == PAD', 'mask = ~(ids == PAD)');
    assert.deepEqual(codes(await lint({ 'block.py': encoder(doc), 'train.py': caller }, 'block.py')), ['ATT002@16']);
  });

  it('fixed: the caller passes `ids == PAD`: silent', async () => {
    assert.deepEqual(codes(await lint({ 'block.py': encoder(doc), 'train.py': padCaller('==') }, 'block.py')), []);
  });

  it("documented True at padding, caller passes a tokenizer's attention_mask as bool: ATT002", async () => {
    const fs = await lint({ 'block.py': encoder(doc), 'train.py': tokenizerCaller('enc["attention_mask"].bool()') }, 'block.py');
    assert.deepEqual(codes(fs), ['ATT002@16']);
  });

  it("fixed: the caller inverts the tokenizer's mask: silent", async () => {
    const fs = await lint({ 'block.py': encoder(doc), 'train.py': tokenizerCaller('enc["attention_mask"] == 0') }, 'block.py');
    assert.deepEqual(codes(fs), []);
  });

  it("the caller's mask polarity is unknown (read from a batch dict): the documentation stands, silent", async () => {
    const caller = `from block import Block


def step(batch, embed):
    layer = Block()
    return layer(embed(batch["ids"]), batch["m"])
`;
    assert.deepEqual(codes(await lint({ 'block.py': encoder(doc), 'train.py': caller }, 'block.py')), []);
  });

  it('no importer: the documented meaning agrees with key_padding_mask, silent', async () => {
    assert.deepEqual(codes(await lint({ 'block.py': encoder(doc) }, 'block.py')), []);
  });

  it('documented True at real tokens (wrong for key_padding_mask) but every caller passes a padding mask: the code decides, silent', async () => {
    const fs = await lint({ 'block.py': encoder('(B, S) bool, True at real tokens'), 'train.py': padCaller('==') }, 'block.py');
    assert.deepEqual(codes(fs), []);
  });

  it('documented True at real tokens and no caller in view: the documentation is the evidence, ATT002', async () => {
    assert.deepEqual(codes(await lint({ 'block.py': encoder('(B, S) bool, True at real tokens') }, 'block.py')), ['ATT002@16']);
  });
});
