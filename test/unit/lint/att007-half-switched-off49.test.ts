// Session 49 (eng-s49c): evidence of half precision that the code itself switches off (ATT007).
//
// Half precision is read from the code of the file or of a workspace file importing it (precision.ts). Two forms turned
// it on by a name alone (probes f25 and f26 of test/lint-probes/session-49/c, both false findings):
// - a config dict's entry that turns a half-precision mode off (`"fp16": {"enabled": False}` in a DeepSpeed config
//   written in the training script, `"fp16": False`): the key's name matched the fp16 flag;
// - `GradScaler(enabled=USE_AMP)` and `torch.autocast("cuda", enabled=USE_AMP)` with `USE_AMP = False` the only binding
//   of the name: autocast and the scaler are switched off, as with `enabled=False` written out.
// Neither is evidence now; an entry or a flag that is on, or a name bound to another value too, still is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';
import { sourcePrecision } from '../../../src/lint/analysis/precision';

const ATTENTION = `import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad):
        q, k, v = self.qkv(x).chunk(3, -1)
        s = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        s = s.masked_fill(pad[:, None, :], -1e9)
        return s.softmax(-1) @ v
`;
const FILL_LINE = 13;

const DEEPSPEED = (fp16: string, bf16 = '{"enabled": True}'): string => `import deepspeed
from attention import Attention

ds_config = {
    "train_batch_size": 32,
    "fp16": ${fp16},
    "bf16": ${bf16},
}
model = Attention(512)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
`;

const AMP = (binding: string): string => `import torch
from attention import Attention

${binding}

model = Attention(256).cuda()
scaler = torch.cuda.amp.GradScaler(enabled=USE_AMP)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def step(x, pad):
    with torch.autocast("cuda", enabled=USE_AMP):
        loss = model(x, pad).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
`;

const lines = (trainer: string): Promise<number[]> => workspaceFindingLines({ 'attention.py': ATTENTION, 'train.py': trainer }, 'attention.py', 'ATT007');

describe('att007 (session 49): half precision the code switches off', () => {
  it('reports -1e9 filled by masked_fill in a model a float16 DeepSpeed config trains (the bug)', async () => {
    assert.deepEqual(await lines(DEEPSPEED('{"enabled": True}', '{"enabled": False}')), [FILL_LINE]);
  });
  it('is silent when the config turns fp16 off and bf16 on (-1e9 fits bfloat16)', async () => {
    assert.deepEqual(await lines(DEEPSPEED('{"enabled": False}')), []);
    assert.deepEqual(await lines(DEEPSPEED('{"loss_scale": 0, "enabled": False}')), []);
    assert.deepEqual(await lines(DEEPSPEED('False')), []);
  });
  it('reads a config entry that is on, or left to another setting, as evidence still', () => {
    assert.equal(sourcePrecision('cfg = {"fp16": {"enabled": True}}\n').fp16, true);
    assert.equal(sourcePrecision('cfg = {"fp16": {"enabled": "auto"}}\n').fp16, true);
    assert.equal(sourcePrecision('cfg = {"fp16": {"enabled": False}}\n').fp16, false);
  });
  it('reports autocast and a GradScaler switched on by a constant that is True (the bug)', async () => {
    assert.deepEqual(await lines(AMP('USE_AMP = True')), [FILL_LINE]);
  });
  it('is silent when the constant that switches them is False everywhere', async () => {
    assert.deepEqual(await lines(AMP('USE_AMP = False')), []);
    assert.deepEqual(await lines(AMP('USE_AMP: bool = False')), []);
  });
  it('still reports when the name is bound to another value too', async () => {
    assert.deepEqual(await lines(AMP('USE_AMP = False\nif torch.cuda.is_available():\n    USE_AMP = True')), [FILL_LINE]);
    assert.deepEqual(await lines(AMP('import sys\nUSE_AMP = False\nUSE_AMP = "--amp" in sys.argv')), [FILL_LINE]);
  });
  it('is the same in one file', async () => {
    const one = (binding: string): string =>
      `${ATTENTION}\n\n${binding}\nscaler = torch.cuda.amp.GradScaler(enabled=USE_AMP)\n\n\ndef step(m, x, pad):\n    with torch.autocast("cuda", enabled=USE_AMP):\n        return m(x, pad)\n`;
    assert.deepEqual(await findingLines(one('USE_AMP = False'), 'ATT007'), []);
    assert.deepEqual(await findingLines(one('USE_AMP = True'), 'ATT007'), [FILL_LINE]);
  });
});
