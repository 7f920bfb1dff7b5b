// Session 42, eng-prec-s42b: ATT007, class "a -inf mask on potentials that are exponentiated, not normalised".
//
// Structured-prediction code (the matrix-tree theorem for non-projective dependency trees, CRF partition functions)
// builds a padding mask as an outer product of the valid positions, writes -inf where it is 0 and adds it to the
// arc scores, then exponentiates them: exp(-inf) = 0 is the weight a padded arc should have, and the Laplacian's
// log-determinant (or its inverse, for the marginals) never divides a row by its own sum. A row of -inf becomes NaN
// only through a softmax (exp over the sum of exp), so the rule's claim "softmax of a row of -inf is NaN" needs one.
// The finding is now left out when the mask the fill builds is added, in its own function, to a tensor that function
// exponentiates (`x.exp()`, `torch.exp(x)`, also through a plain alias `input = arc_scores`), and the file normalises
// nothing: no softmax, log_softmax, hand-written exp / sum, or logsumexp in it. Attention code keeps the finding: a
// softmax of the same scores, a hand-written one, or a mask that leaves its function (returned, for a caller that may
// normalise with it).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

// The matrix-tree theorem over padded sentences. arc_scores: (B, N, N); lengths: (B,).
const matrixTree = (consume: string, extra = '') => `import torch


def tree_logpartition(arc_scores, lengths, eps=1e-5):
    batch, N, _ = arc_scores.shape
    x = torch.arange(N, device=arc_scores.device).expand(batch, N) < lengths.unsqueeze(1)
    x = x.unsqueeze(2).expand(-1, -1, N)
    mask = (torch.transpose(x, 1, 2) * x).float()
    mask[mask == 0] = float("-inf")
    mask[mask == 1] = 0
    arc_scores = arc_scores + mask
${consume}
${extra}`;
const FILL_LINE = 9;

const LOGDET = `    potentials = arc_scores
    lap = potentials.exp() + eps
    lap = -lap + torch.diag_embed(lap.sum(1))
    return lap.logdet()
`;

describe('ATT007: a -inf mask on potentials that are exponentiated, not normalised (session 42)', () => {
  it('is silent on the matrix-tree log-partition: exp(-inf) = 0 weights the padded arcs, no row is normalised', async () => {
    assert.deepEqual(await findingLines(matrixTree(LOGDET), 'ATT007'), []);
  });

  it('is silent with torch.exp of the sum itself (no alias)', async () => {
    const direct = `    lap = torch.exp(arc_scores) + eps
    return torch.linalg.slogdet(lap)[1]
`;
    assert.deepEqual(await findingLines(matrixTree(direct), 'ATT007'), []);
  });

  it('still reports the same mask when the scores go through a softmax', async () => {
    const softmax = `    return torch.softmax(arc_scores, dim=-1)
`;
    assert.deepEqual(await findingLines(matrixTree(softmax), 'ATT007'), [FILL_LINE]);
  });

  it('still reports a hand-written softmax (exp divided by its own sum): a padded row is 0 / 0', async () => {
    const handWritten = `    e = arc_scores.exp()
    return e / e.sum(-1, keepdim=True)
`;
    assert.deepEqual(await findingLines(matrixTree(handWritten), 'ATT007'), [FILL_LINE]);
  });

  it('still reports when a softmax elsewhere in the file may normalise the masked scores', async () => {
    const returned = `    return arc_scores.exp(), arc_scores
`;
    const elsewhere = `

def attend(q, k, v, lengths):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = tree_logpartition(s, lengths)[1]
    return torch.softmax(s, dim=-1) @ v
`;
    assert.deepEqual(await findingLines(matrixTree(returned, elsewhere), 'ATT007'), [FILL_LINE]);
  });

  it('still reports a mask that leaves its function with no exponentiation there (a caller may normalise with it)', async () => {
    const returned = `    return arc_scores
`;
    assert.deepEqual(await findingLines(matrixTree(returned), 'ATT007'), [FILL_LINE]);
  });

  it('the fixed form (a finite fill) is silent as well', async () => {
    const fixed = matrixTree(LOGDET).replace('float("-inf")', 'torch.finfo(mask.dtype).min');
    assert.deepEqual(await findingLines(fixed, 'ATT007'), []);
  });

  describe('cross-file: a parser that imports the structure and runs attention of its own', () => {
    const parser = `import torch
from deptree import tree_logpartition


def loss(q, k, arc_scores, lengths, gold):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    w = torch.softmax(s, dim=-1)
    return tree_logpartition(arc_scores, lengths) - (w * gold).sum()
`;
    it('the structure file is silent in the workspace: the importer normalises its own scores, not the potentials', async () => {
      const files = { 'deptree.py': matrixTree(LOGDET), 'parser.py': parser };
      assert.deepEqual(await workspaceFindingLines(files, 'deptree.py', 'ATT007'), []);
    });

    it('a structure file that returns the masked scores to that importer is still reported', async () => {
      const returns = matrixTree(`    return arc_scores
`);
      const normalises = `import torch
from deptree import tree_logpartition


def attend(s, lengths, v):
    return torch.softmax(tree_logpartition(s, lengths), dim=-1) @ v
`;
      const files = { 'deptree.py': returns, 'parser.py': normalises };
      assert.deepEqual(await workspaceFindingLines(files, 'deptree.py', 'ATT007'), [FILL_LINE]);
    });
  });
});
