// Session 36, reg-fill-s36: ATT006, class "weights from a scorer module chosen by a switch, masked in place by a
// helper, used by another module".
//
// An alignment module builds one of several scorer modules by a string (`DotScore()` or `AdditiveScore(...)`), each
// returning weights already softmaxed over the memory frames (one only when its `normalise` flag, True by default, is
// set); a helper writes -inf into the padded frames of those weights in place, and a readout module multiplies them
// with the memory. Three things the analysis now carries: an `if` arm known to run (the flag left at its default where
// the module is built) overwrites the definition before it; weights of two modules' softmaxes, one over an axis the
// code does not show, are still weights; and a product in a module called after the in-place helper, in the same
// function, reads the written weights.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const SCORERS = `import torch
import torch.nn as nn
import torch.nn.functional as F


class DotScore(nn.Module):
    def __init__(self, normalise=True):
        super().__init__()
        self.normalise = normalise

    def forward(self, query, memory):
        # query: (B, T, D), memory: (B, S, D) -> (B, T, S)
        w = torch.bmm(query, memory.transpose(1, 2))
        if self.normalise:
            w = F.softmax(w, dim=2)
        return w


class AdditiveScore(nn.Module):
    def __init__(self, q_dim, m_dim, hidden=64):
        super().__init__()
        self.wq = nn.Linear(q_dim, hidden)
        self.wm = nn.Linear(m_dim, hidden)
        self.v = nn.Linear(hidden, 1)

    def forward(self, query, memory):
        e = torch.tanh(self.wq(query).unsqueeze(2) + self.wm(memory).unsqueeze(1))
        return F.softmax(self.v(e).squeeze(3), dim=2)


class Readout(nn.Module):
    def forward(self, memory, w):
        return torch.bmm(w, memory)
`;

const aligner = (build: string, forward: string): string => `${SCORERS}

class Aligner(nn.Module):
    def __init__(self, kind, q_dim, m_dim):
        super().__init__()
${build}
        self.readout = Readout()

    def _hide_padding(self, w, lengths):
        keep = torch.arange(w.shape[2], device=w.device)[None, :] < lengths[:, None]
        w[~keep.unsqueeze(1).expand_as(w)] = float("-inf")

    def forward(self, query, memory, lengths):
${forward}
`;
const SWITCH = `        if kind == "dot":
            self.score = DotScore()
        else:
            self.score = AdditiveScore(q_dim, m_dim)`;
const MASK_AFTER = `        w = self.score(query, memory)
        self._hide_padding(w, lengths)
        return self.readout(memory, w)`;
const LINE = 47; // the in-place -inf write in _hide_padding

describe('ATT006: weights of switched scorer modules masked in place by a helper (session 36)', () => {
  it('reports the in-place mask of weights from either scorer, used by the readout module', async () => {
    assert.deepEqual(await findingLines(aligner(SWITCH, MASK_AFTER), 'ATT006'), [LINE]);
  });

  it('reads the flag left at its default as the arm that runs', async () => {
    // Three lines fewer in __init__ than the switch.
    assert.deepEqual(await findingLines(aligner('        self.score = DotScore()', MASK_AFTER), 'ATT006'), [LINE - 3]);
  });

  it('is silent where the scorer does not normalise and the softmax follows the mask (the fix)', async () => {
    const fixed = `        w = self.score(query, memory)
        self._hide_padding(w, lengths)
        return self.readout(memory, F.softmax(w, dim=2))`;
    assert.deepEqual(await findingLines(aligner('        self.score = DotScore(normalise=False)', fixed), 'ATT006'), []);
  });

  it('is silent when the readout runs before the helper writes into the weights', async () => {
    const before = `        w = self.score(query, memory)
        out = self.readout(memory, w)
        self._hide_padding(w, lengths)
        return out`;
    assert.deepEqual(await findingLines(aligner(SWITCH, before), 'ATT006'), []);
  });

  it('stays silent with the scorers in another file, which it does not follow for weights', async () => {
    const src = aligner(SWITCH, MASK_AFTER);
    const align = `import torch\nimport torch.nn as nn\n\nfrom .scorers import AdditiveScore, DotScore, Readout\n${src.slice(src.indexOf('\n\nclass Aligner'))}`;
    const files = { 'pkg/__init__.py': '', 'pkg/scorers.py': SCORERS, 'pkg/align.py': align };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/align.py', 'ATT006'), []);
  });
});
