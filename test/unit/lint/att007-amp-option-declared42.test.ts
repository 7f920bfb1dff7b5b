// Session 42, eng-prec-s42b (separate branch eng-prec-s42b-amp): ATT007's half-precision evidence, class "a
// mixed-precision option declared off and never acted on".
//
// Training scripts copy argument lists from a library (`parser.add_argument('--use_amp', action='store_true',
// help='use automatic mixed precision training', default=False)`, from the time-series libraries' run scripts) and
// keep options nothing reads. The declaration counted as a half-precision flag (`use_amp` not followed by `= False`),
// so every model file the script imports was judged in float16 and pykt's `masked_fill(mask == 0, -1e32)` reported as
// raising (precscan12b: 18 findings in one repository). An option declared off says the script offers half precision;
// what runs it is the code acting on the option (`autocast(enabled=args.use_amp)`, `Trainer(fp16=args.fp16)`, a
// `GradScaler`, `.half()`), which stays evidence, as does an option on by default (`store_false`, `default=True`).
import { strict as assert } from 'node:assert';
import { sourcePrecision } from '../../../src/lint/analysis/precision';
import { findingLines, workspaceFindingLines } from './helpers';

// A knowledge-tracing attention (pykt's), padded keys filled with -1e32 by masked_fill.
const MODEL = `import math
import torch
import torch.nn.functional as F


def attention(q, k, v, mask):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(mask == 0, -1e32)
    return torch.matmul(F.softmax(scores, dim=-1), v)
`;
const FILL_LINE = 8;

const train = (option: string, use = '') => `import argparse
import torch
from model import attention


def main(args, q, k, v, mask):
${use || '    return attention(q, k, v, mask)'}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=32)
    ${option}
    args = parser.parse_args()
`;
const OFF = `parser.add_argument('--use_amp', action='store_true', help='use automatic mixed precision training', default=False)`;

describe('ATT007: a mixed-precision option declared off and never acted on is no half-precision evidence (session 42)', () => {
  it('is silent when the only evidence is the declaration of an option nothing reads', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'model.py': MODEL, 'train.py': train(OFF) }, 'model.py', 'ATT007'), []);
  });

  it('is silent for `--fp16` declared store_true as well', async () => {
    const fp16 = `parser.add_argument("--fp16", action="store_true")`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': MODEL, 'train.py': train(fp16) }, 'model.py', 'ATT007'), []);
  });

  it('still reports when the script acts on the option (autocast enabled by it)', async () => {
    const acts = `    with torch.autocast("cuda", enabled=args.use_amp):
        return attention(q, k, v, mask)`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': MODEL, 'train.py': train(OFF, acts) }, 'model.py', 'ATT007'), [FILL_LINE]);
  });

  it('still reports an option on by default (store_false, default=True)', async () => {
    const on = `parser.add_argument('--use_amp', action='store_false', help='turn off mixed precision')`;
    const onByDefault = `parser.add_argument('--fp16', type=bool, default=True)`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': MODEL, 'train.py': train(on) }, 'model.py', 'ATT007'), [FILL_LINE]);
    assert.deepEqual(await workspaceFindingLines({ 'model.py': MODEL, 'train.py': train(onByDefault) }, 'model.py', 'ATT007'), [FILL_LINE]);
  });

  it('in one file: the declaration alone is silent, a GradScaler next to it is reported', async () => {
    const one =
      MODEL +
      `

if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser()
    ${OFF}
    args = parser.parse_args()
`;
    assert.deepEqual(await findingLines(one, 'ATT007'), []);
    assert.deepEqual(await findingLines(one + 'scaler = torch.cuda.amp.GradScaler(enabled=args.use_amp)\n', 'ATT007'), [FILL_LINE]);
  });

  it('the fixed fill is silent whatever the script does', async () => {
    const fixed = MODEL.replace('-1e32', 'torch.finfo(scores.dtype).min');
    const acts = `    with torch.autocast("cuda", enabled=args.use_amp):
        return attention(q, k, v, mask)`;
    assert.deepEqual(await workspaceFindingLines({ 'model.py': fixed, 'train.py': train(OFF, acts) }, 'model.py', 'ATT007'), []);
  });

  it('reads a default of 0 as off, and no other number (0.5, 1) as off', () => {
    assert.equal(sourcePrecision("p.add_argument('--use_amp', type=int, default=0)").fp16, false);
    assert.equal(sourcePrecision("p.add_argument('--use_amp', type=float, default=0.5)").fp16, true);
    assert.equal(sourcePrecision("p.add_argument('--use_amp', type=int, default=1)").fp16, true);
  });
});
