// Session 49, eng-s49a: class "the 1/sqrt(d) folded into the query projection's initialisation" (Mesh TensorFlow's
// convention, which T5 follows: the forward leaves q·kᵀ unscaled because the query weights are drawn with a standard
// deviation carrying one more negative square root, of the head width, than the key weights').
//
// Found by the session's probe test/lint-probes/session-49/a/folders/f04_init_scales_query_weights (an unscaled
// attention layer whose model's init function, in another file, draws `q.weight` with std `(d_model * d_kv) ** -0.5`
// beside `k.weight` with `d_model ** -0.5`): ATT003 reported it unless a comment said so. The evidence is code: the two
// initialisations of the projections the forward applies to make q and k, compared with each other. A std with no
// extra size (both `d_model ** -0.5`, or a constant 0.02) folds nothing and the finding stays.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const LAYER = (init: string) => `import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d_model, n_heads, d_kv):
        super().__init__()
        self.n_heads = n_heads
        self.d_kv = d_kv
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)
${init}
    def forward(self, x):
        b, n, _ = x.shape
        q = self.q(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        k = self.k(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        v = self.v(x).view(b, n, self.n_heads, self.d_kv).transpose(1, 2)
        scores = q @ k.transpose(-2, -1)
        attn = scores.softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(b, n, -1)
`;

const OWN_INIT = (qStd: string, kStd: string) => `        nn.init.normal_(self.q.weight, mean=0.0, std=${qStd})
        nn.init.normal_(self.k.weight, mean=0.0, std=${kStd})
`;

const INIT_FILE = (qStd: string, kStd: string, guard = 'isinstance(module, Attention)') => `from layers import Attention


def init_weights(module, factor=1.0):
    if ${guard}:
        d_model = module.q.in_features
        key_value_proj_dim = module.d_kv
        module.q.weight.data.normal_(mean=0.0, std=${qStd})
        module.k.weight.data.normal_(mean=0.0, std=${kStd})
        module.v.weight.data.normal_(mean=0.0, std=factor * (d_model ** -0.5))
`;

/** The line where the scores enter the softmax: where the finding is reported. */
const at = (src: string): number[] => [src.split('\n').findIndex((l) => l.includes('scores.softmax')) + 1];

describe("eng-s49a ATT003: the scale folded into the query projection's initialisation", () => {
  it('natural: the class draws q with std (d_model * d_kv) ** -0.5 beside k with d_model ** -0.5: silent', async () => {
    assert.deepEqual(await findingLines(LAYER(OWN_INIT('(d_model * d_kv) ** -0.5', 'd_model ** -0.5')), 'ATT003'), []);
    // The same with 1 / math.sqrt(...) written out, and a factor on both.
    const sqrt = LAYER(OWN_INIT('0.5 * (1.0 / math.sqrt(d_model * d_kv))', '0.5 * (1.0 / math.sqrt(d_model))')).replace(
      'import torch.nn',
      'import math\nimport torch.nn',
    );
    assert.deepEqual(await findingLines(sqrt, 'ATT003'), []);
  });
  it('buggy twins: the same std for q and k, a constant std, or no init shown: reported', async () => {
    for (const src of [
      LAYER(OWN_INIT('d_model ** -0.5', 'd_model ** -0.5')),
      LAYER(OWN_INIT('0.02', '0.02')),
      LAYER(''),
      // The larger std on the keys: the query carries no extra factor.
      LAYER(OWN_INIT('d_model ** -0.5', '(d_model * d_kv) ** -0.5')),
    ])
      assert.deepEqual(await findingLines(src, 'ATT003'), at(src));
  });
  it('cross-file: an init function of an importing file, under isinstance(module, Attention): silent; its twins reported', async () => {
    const files = (init: string) => ({ 'layers.py': LAYER(''), 'init.py': init });
    assert.deepEqual(
      await workspaceFindingLines(files(INIT_FILE('factor * ((d_model * key_value_proj_dim) ** -0.5)', 'factor * (d_model ** -0.5)')), 'layers.py', 'ATT003'),
      [],
    );
    // The same std on both projections: nothing folded.
    assert.deepEqual(
      await workspaceFindingLines(files(INIT_FILE('factor * (d_model ** -0.5)', 'factor * (d_model ** -0.5)')), 'layers.py', 'ATT003'),
      at(LAYER('')),
    );
    // Another class's layers (the guard names another class): says nothing of this one.
    assert.deepEqual(
      await workspaceFindingLines(
        files(INIT_FILE('factor * ((d_model * key_value_proj_dim) ** -0.5)', 'factor * (d_model ** -0.5)', 'isinstance(module, (nn.Linear, Other))')),
        'layers.py',
        'ATT003',
      ),
      at(LAYER('')),
    );
  });
});
