// Session 49 (eng-s49c): prose that says the code does not run in half precision (ATT007).
//
// With no code evidence, a comment or docstring saying how the code runs (`# trained with --fp16`, "half with --fp16")
// makes ATT007 judge the fills in float16. Any sentence naming fp16, mixed precision or autocast counted, also one
// saying the opposite: a note left for later (`# TODO: fp16 training`), a negation (`# fp16 is not supported yet`,
// "no fp16 here"), the mode switched off or failing (`# FIXME: NaNs under autocast, disabled for now`, "fp16
// diverged"). Such a sentence says the code does not run in half precision (or not yet): no evidence now, as a sentence
// offering half precision as an option is not.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';
import { sourcePrecision } from '../../../src/lint/analysis/precision';

const FILE = (comment: string): string => `import torch

${comment}


def attend(q, k, v, pad):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    s = s.masked_fill(pad[:, None, :], -1e9)
    return s.softmax(-1) @ v
`;
const FILL_LINE = 8;

describe('att007 (session 49): prose saying the code does not run in half precision', () => {
  it('reports -1e9 filled by masked_fill in a file whose prose says it trains with --fp16 (the bug)', async () => {
    assert.deepEqual(await findingLines(FILE('# trained with --fp16 on 8 GPUs'), 'ATT007'), [FILL_LINE]);
  });
  for (const comment of [
    '# TODO: fp16 training',
    '# FIXME: NaNs under autocast, disabled for now',
    '# fp16 is not supported yet',
    '# no fp16 here: float32 only',
    '# we train in fp32 (fp16 diverged)',
    "# mixed precision doesn't work with this layer",
  ])
    it(`is silent for ${comment}`, async () => {
      assert.deepEqual(await findingLines(FILE(comment), 'ATT007'), []);
    });
  it('keeps the sentences that say it runs in half precision', () => {
    assert.equal(sourcePrecision('x = 1  # runs under autocast\n').fp16, true);
    assert.equal(sourcePrecision('def f(x):\n    """x: (T, B, C), half with --fp16."""\n').fp16, true);
    assert.equal(sourcePrecision('x = 1  # TODO: fp16\ny = 2  # trained in mixed precision\n').fp16, true);
  });
  it('reads code before prose: code that runs in float16 is reported whatever a comment says', async () => {
    const src = `${FILE('# TODO: fp16 training')}\n\nmodel = torch.nn.Linear(4, 4).half()\n`;
    assert.deepEqual(await findingLines(src, 'ATT007'), [FILL_LINE]);
  });
});
