// Session 49 (eng-s49d1, fresh ledger s49-d1 rows 3 and 6: a course's transformer assignment): a comment about the
// value a function builds, read as the description of its mask parameter (ATT002; shared: comments.ts paramDoc).
//
// Class: `# Build additive mask: 0 for keep, -inf for masked` above `attn_mask = (~mask).to(q.dtype) * ...` names the
// additive mask the code is about to build; `mask:` there ends the phrase "additive mask", it does not start a
// description of the parameter `mask`. Read as one, it made the boolean keep mask (docstring: True = keep) an additive
// one, and both uses of it were reported as inverted. A parameter's description starts where the name starts it: a
// line of a comment or docstring (after indentation, `#`, quotes, a bullet, `:param` and a type) or after the `;`,
// `,` or `.` that ends the entry before it; never after another word.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** An attention helper with a boolean keep mask; `comment` is the comment above the additive mask it builds. */
const ATTEND = (doc: string, comment: string, toAdditive = '(~mask).to(q.dtype)'): string => `import math
import torch
import torch.nn.functional as F


def attend(q, k, v, mask=None, use_sdpa=True):
    """
    q, k, v: [B, H, T, D]
    ${doc}
    """
    if use_sdpa:
        attn_mask = None
        if mask is not None:
            ${comment}
            attn_mask = ${toAdditive} * torch.finfo(q.dtype).min
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.matmul(torch.softmax(scores, dim=-1), v)
`;

const KEEP_DOC = 'mask: optional boolean mask broadcastable to [B, H, T, T]\n          True = keep, False = mask out.';

describe('ATT002 a comment about a built value is no description of the mask parameter (session 49)', () => {
  it('stays silent on a keep mask whose comment names the additive mask built from it', async () => {
    assert.deepEqual(await findingLines(ATTEND(KEEP_DOC, '# Build additive mask: 0 for keep, -inf for masked'), 'ATT002'), []);
  });

  it('still reads a description that starts a comment line (the comment states the parameter)', async () => {
    // The comment now describes the parameter itself as additive: `~mask` of an additive mask is a bug.
    const src = ATTEND('', '# mask: additive mask, 0 for keep, -inf for masked');
    assert.deepEqual(await findingLines(src, 'ATT002'), [15, 19]);
  });

  it('still reports an inverted use of the keep mask (the docstring states True = keep)', async () => {
    const doc = 'mask: optional boolean mask, True = keep, False = mask out.';
    assert.deepEqual(await findingLines(ATTEND(doc, '# Build additive mask: 0 for keep, -inf for masked', 'mask.to(q.dtype)'), 'ATT002'), [15]);
  });

  it('reads an entry of a one-line docstring list after a semicolon, comma or full stop', async () => {
    for (const doc of ['x: [B, T]; mask: bool, True = keep, False = mask out.', 'Attend. mask: bool, True = keep, False = mask out.'])
      assert.deepEqual(await findingLines(ATTEND(doc, '# build it', 'mask.to(q.dtype)'), 'ATT002'), [15], doc);
  });

  it('reads the helper of another workspace file the same way at its callers', async () => {
    const model = `import torch
from attn import attend


def make_padding_mask(x, pad_id=0):
    return (x != pad_id).unsqueeze(1).unsqueeze(2)


def run(q, k, v, tokens):
    return attend(q, k, v, mask=make_padding_mask(tokens))
`;
    const comment = '# Build additive mask: 0 for keep, -inf for masked';
    const files = (toAdditive?: string) => ({ 'attn.py': ATTEND(KEEP_DOC, comment, toAdditive), 'model.py': model });
    assert.deepEqual(await workspaceFindingLines(files(), 'attn.py', 'ATT002'), []);
    // The padding mask the caller builds is True at the real tokens: turned additive without `~`, it masks them.
    assert.deepEqual(await workspaceFindingLines(files('mask.to(q.dtype)'), 'attn.py', 'ATT002'), [16]);
  });
});
