// Session 48, eng-s48b: ATT002 weak-source audit, class "two names are no construction".
//
// At a masking fill (masked_fill, `m * -1e9` added to the scores) a polarity known only from a library name
// (`attention_mask`: a tokenizer's keep mask; `key_padding_mask`: PyTorch's True = padding) counted when the code stored
// the value under a second name of its own that agreed (`valid = attention_mask != 0`, `keep_in_window = ...`,
// `ignore = attention_mask == 0` flipped back). Neither name shows what the parameter holds: inside a model the same
// `attention_mask` is the tokenizer's 0/1 mask in one function and the additive 4-D bias in the next, whose `!= 0` is the
// masked part. Switched off, the path lost no true finding of the regression copy, training, corpus or holdout sets and
// none of the public ledgers' rows; it decided only synthetic fixtures. So a second name that agrees is no evidence; a
// construction the code shows (a caller in the file, or in an importing file, passing a mask built from ids) still is.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

/** A layer that fills the positions its own name calls valid; what `attention_mask` holds is not shown. */
const LAYER = `import torch


def attend(q, k, v, attention_mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    valid = attention_mask[:, None, None, :] != 0
    scores = scores.masked_fill(valid, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
`;

describe('ATT002: two names that agree are no construction (session 48)', () => {
  it('is silent on a library-named mask stored under an agreeing name and filled where True', async () => {
    assert.deepEqual(await findingLines(LAYER, 'ATT002'), []);
    // ...and on the additive form of the same reading (`keep * -1e9` added to the scores).
    const additive = LAYER.replace('scores = scores.masked_fill(valid, float("-inf"))', 'scores = scores + valid.float() * -1e9');
    assert.deepEqual(await findingLines(additive, 'ATT002'), []);
  });

  it('reports the same fill where a caller of the file passes a keep mask it builds from token ids', async () => {
    const src = `${LAYER}

def encode(q, k, v, ids, pad_id):
    return attend(q, k, v, ids != pad_id)
`;
    assert.deepEqual(await findingLines(src, 'ATT002'), [7]);
    // Its fixed twin: the fill of the flipped mask.
    assert.deepEqual(await findingLines(src.replace('masked_fill(valid,', 'masked_fill(~valid,'), 'ATT002'), []);
  });

  it('across files: silent with a caller that passes a dict entry of unknown origin, reported with ids != pad', async () => {
    const unknown = {
      'nlp/layer.py': LAYER,
      'nlp/run.py': `from .layer import attend


def step(q, k, v, features):
    return attend(q, k, v, features.get("mask"))
`,
    };
    assert.deepEqual(await workspaceFindingLines(unknown, 'nlp/layer.py', 'ATT002'), []);
    const built = {
      'nlp/layer.py': LAYER,
      'nlp/run.py': `from .layer import attend


def step(q, k, v, ids, pad_id):
    return attend(q, k, v, ids != pad_id)
`,
    };
    assert.deepEqual(await workspaceFindingLines(built, 'nlp/layer.py', 'ATT002'), [7]);
  });
});
