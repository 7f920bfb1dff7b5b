// Session 30, att006helper30: ATT006, class "a helper of another file that masks the weights after softmax with its
// caller's mask".
//
// A helper `attend(q, k, v, causal)` (or `weights(scores, mask)`) takes the softmax of the scores and multiplies the
// weights by a mask parameter. Read alone, the mask is unknown: nothing says it is a 0/1 mask rather than, say, a
// dropout or a head mask, and the rule stays silent (precision first). Where a file importing the helper calls it,
// that call decides, as a call of the same file does (post30-helper-callers): reported when a caller passes a 0/1 or
// boolean mask and the scores were not masked before the softmax; silent when every caller masks the scores first,
// passes no mask, or the weights are renormalised after the product.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

const H = 'import math\n\nimport torch\nimport torch.nn.functional as F\n';

/** The helper in `pkg/attn.py`, forming its own scores: the product with the mask at line 9. */
const attendHelper = (body = '    w = F.softmax(scores, dim=-1) * causal\n') => `${H}

def attend(q, k, v, causal=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
${body}    return w @ v
`;
const POST = 9;

/** The helper handed scores by its callers (`weights(scores, mask)`). */
const weightsHelper = `${H}

def weights(scores, mask):
    w = F.softmax(scores, dim=-1)
    return w * mask.float()
`;

const files = (helper: string, model: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/attn.py': helper, 'pkg/model.py': model });
const lines = (helper: string, model: string): Promise<number[]> => workspaceFindingLines(files(helper, model), 'pkg/attn.py', 'ATT006');

const modelCalling = (call: string, imp = 'from .attn import attend'): string => `${H}${imp}


def run(q, k, v, T):
    return ${call}
`;

describe("lint: a helper of another file masking the weights after softmax with its caller's mask (ATT006)", () => {
  it("a caller passing a causal tril(ones) 0/1 mask: reported at the helper's product", async () => {
    assert.deepEqual(await lines(attendHelper(), modelCalling('attend(q, k, v, torch.tril(torch.ones(T, T)))')), [POST]);
  });
  it('a caller passing a boolean key mask built by a comparison: reported', async () => {
    const model = `${H}from .attn import attend


def run(q, k, v, input_ids):
    keep = (input_ids != 0)[:, None, None, :]
    return attend(q, k, v, keep)
`;
    assert.deepEqual(await lines(attendHelper(), model), [POST]);
  });
  it('module imported under an alias (`import pkg.attn as A`): reported', async () => {
    assert.deepEqual(await lines(attendHelper(), modelCalling('A.attend(q, k, v, torch.tril(torch.ones(T, T)))', 'import pkg.attn as A')), [POST]);
  });
  it('the finding decided by an importing call says so and links that call (issue 11: evidence in another file)', async () => {
    const ws = files(attendHelper(), modelCalling('attend(q, k, v, torch.tril(torch.ones(T, T)))'));
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(ws), onInternalError: (e) => assert.fail(String(e)) });
    const [f, ...rest] = l.lintPython(ws['pkg/attn.py'], { path: 'pkg/attn.py' }).filter((x) => x.code === 'ATT006');
    assert.equal(rest.length, 0);
    assert.match(f.message, /\(as called at pkg\/model\.py:9\)/);
    const call = f.related?.find((r) => r.path === 'pkg/model.py');
    assert.ok(call, JSON.stringify(f.related));
    assert.equal(call.line, 9);
    assert.match(call.message, /`attend` is called here, in a file that imports this one/);
  });
  it('no caller in view: silent (the mask parameter alone says nothing)', async () => {
    assert.deepEqual(await workspaceFindingLines({ 'pkg/__init__.py': '', 'pkg/attn.py': attendHelper() }, 'pkg/attn.py', 'ATT006'), []);
  });
  it('a caller passing no mask (the default None): silent', async () => {
    const helper = attendHelper('    w = F.softmax(scores, dim=-1)\n    if causal is not None:\n        w = w * causal\n');
    assert.deepEqual(await lines(helper, modelCalling('attend(q, k, v)')), []);
  });
  it('the helper masks the scores before the softmax too (the same mask): silent', async () => {
    const helper = attendHelper('    scores = scores.masked_fill(causal == 0, float("-inf"))\n    w = F.softmax(scores, dim=-1) * causal\n');
    assert.deepEqual(await lines(helper, modelCalling('attend(q, k, v, torch.tril(torch.ones(T, T)))')), []);
  });
  it('the weights renormalised after the product: silent', async () => {
    const helper = attendHelper('    w = F.softmax(scores, dim=-1) * causal\n    w = w / w.sum(dim=-1, keepdim=True)\n');
    assert.deepEqual(await lines(helper, modelCalling('attend(q, k, v, torch.tril(torch.ones(T, T)))')), []);
  });
  it('weights(scores, mask): every importing caller masks the scores first: silent; one hands raw scores: reported', async () => {
    const model = (masking: string) => `${H}from .attn import weights


def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${masking}
    return weights(s, mask) @ v
`;
    assert.deepEqual(await lines(weightsHelper, model('s = s.masked_fill(mask == 0, -1e9)')), []);
    assert.deepEqual(await lines(weightsHelper, model('mask = torch.tril(torch.ones(s.size(-1), s.size(-1)))')), [9]);
  });
});
