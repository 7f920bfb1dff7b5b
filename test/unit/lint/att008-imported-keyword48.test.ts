// Session 48, eng-s48b: ATT008 weak-source audit, class "a keyword of an imported function's call is that function's".
//
// A flag passed by name with a mask (`attn_mask=mask, is_causal=is_causal`, a parameter with a default of False and no
// caller in view) was read True on some calls from any `is_causal=True` written in the file in a call the file does not
// define: the literal of another SDPA call (`F.scaled_dot_product_attention(q, k, v, is_causal=True)` in a function
// with no mask) made the masked one "True on some calls". That keyword is an argument of PyTorch's function, not of
// this one. A call of an imported name or of a module's attribute now never sets a flag of this file's functions;
// calls of objects the file neither defines nor imports (`layer(x, state, prefill=True)`, the instances a loop runs)
// still may, and a call in view that passes the flag True still decides.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TWO_PATHS = `import torch.nn.functional as F


def causal_attention(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def masked_attention(q, k, v, mask, is_causal=False):
    mask = mask[:, None, None, :].bool()
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal)
`;

describe('ATT008: a keyword of an imported function is no value of this flag (session 48)', () => {
  it("is silent on a masked path whose flag only another SDPA call's literal sets True", async () => {
    assert.deepEqual(await findingLines(TWO_PATHS, 'ATT008'), []);
    // Nor with the causal path written with a flash-attn function imported by name.
    const flash = TWO_PATHS.replace(
      'import torch.nn.functional as F\n',
      'import torch.nn.functional as F\nfrom flash_attn import flash_attn_func as is_causal_kernel\n',
    ).replace('return F.scaled_dot_product_attention(q, k, v, is_causal=True)', 'return is_causal_kernel(q, k, v, is_causal=True)');
    assert.deepEqual(await findingLines(flash, 'ATT008'), []);
  });

  it('reports the masked path where the file calls it with is_causal=True', async () => {
    const src = `${TWO_PATHS}

def decode(q, k, v, mask):
    return masked_attention(q, k, v, mask, is_causal=True)
`;
    assert.deepEqual(await findingLines(src, 'ATT008'), [10]);
    // Its fixed twin: the caller folds the causal mask into the mask and passes is_causal=False.
    assert.deepEqual(await findingLines(src.replace('mask, is_causal=True)', 'mask, is_causal=False)'), 'ATT008'), []);
  });

  it('across files: an importer passing is_causal=True reports; one that only calls SDPA with it does not', async () => {
    const passes = {
      'ops/attn.py': TWO_PATHS,
      'ops/decoder.py': `from .attn import masked_attention


def step(q, k, v, mask):
    return masked_attention(q, k, v, mask, is_causal=True)
`,
    };
    assert.deepEqual(await workspaceFindingLines(passes, 'ops/attn.py', 'ATT008'), [10]);
    const literal = {
      'ops/attn.py': TWO_PATHS,
      'ops/prefill.py': `import torch.nn.functional as F


def prefill(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
`,
    };
    assert.deepEqual(await workspaceFindingLines(literal, 'ops/attn.py', 'ATT008'), []);
  });
});

// The same audit, class "prose is no code": the flag's names were searched in the file's text, comments and docstrings
// included, so a comment saying when to pass `is_causal=True` made the flag True on some calls.
const DOCUMENTED = `import torch.nn.functional as F


def masked_attention(q, k, v, mask, is_causal=False):
    """Attention over a boolean keep mask. Callers without a mask use attend(q, k, v, None, is_causal=True)."""
    # never pass is_causal=True together with a mask: SDPA raises
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask.bool(), is_causal=is_causal)
`;

describe('ATT008: a comment or a docstring sets no flag (session 48)', () => {
  it('is silent when `is_causal=True` is written only in a comment and a docstring', async () => {
    assert.deepEqual(await findingLines(DOCUMENTED, 'ATT008'), []);
  });

  it('reports the same function where code of the file passes the flag True with a mask', async () => {
    const src = `${DOCUMENTED}

def step(q, k, v, mask):
    return masked_attention(q, k, v, mask, is_causal=True)
`;
    assert.deepEqual(await findingLines(src, 'ATT008'), [7]);
  });

  it('across files: reported where the importer passes it True in code, silent where it only says so in a comment', async () => {
    const code = {
      'ops/attn.py': DOCUMENTED,
      'ops/use.py': `from .attn import masked_attention


def step(q, k, v, mask):
    return masked_attention(q, k, v, mask, is_causal=True)
`,
    };
    assert.deepEqual(await workspaceFindingLines(code, 'ops/attn.py', 'ATT008'), [7]);
    const prose = {
      'ops/attn.py': DOCUMENTED,
      'ops/use.py': `from .attn import masked_attention


def step(q, k, v, mask):
    # is_causal=True would raise here, so the mask carries the causal part
    return masked_attention(q, k, v, mask)
`,
    };
    assert.deepEqual(await workspaceFindingLines(prose, 'ops/attn.py', 'ATT008'), []);
  });
});
