// Session 49 (eng-s49d1, fresh ledger s49-d1: two course repositories' softmax classifiers, cs231n assignment 1 and
// a CS7643 homework, `softmax.py`): a softmax's output changed in place at indexed positions before its product (ATT001).
//
// Class: a softmax classifier's loss and gradient written by hand in NumPy. `probs = exp / exp.sum(axis=1)` over the
// classes, then `probs[np.arange(N), y] -= 1` (softmax minus the one-hot labels, the cross-entropy gradient of the
// logits: each row now sums to 0), then `dW = X.T.dot(probs)`, the weight gradient. The product sums over the samples,
// and the data X is where the logits came from, so the rule read it as weights summed over their query axis. An
// additive write at picked positions (`-=`, `+=` into a subscript, also of a copy, `d = probs.copy()`) changes the
// row sums: the operand is no distribution any more, and its product is no attention contraction. A fill at picked
// positions (`w[mask] = 0`, a mask) or a write after the product leaves the weights as they were.
import { strict as assert } from 'node:assert';
import { findingLines } from './helpers';

/** A vectorised softmax loss; `between` runs between the softmax and the product `X.T.dot(<operand>)`. */
const LOSS = (between: string, operand = 'probs'): string => `import numpy as np


def softmax_loss_vectorized(W, X, y, reg):
    num_train = X.shape[0]
    scores = X.dot(W)  # (N, C)
    exp_scores = np.exp(scores - np.max(scores, axis=1, keepdims=True))  # (N, C)
    probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)  # (N, C)
    loss = -np.sum(np.log(probs[np.arange(num_train), y])) / num_train
    ${between}
    dW = X.T.dot(${operand}) / num_train + 2 * reg * W  # (D, C)
    return loss, dW
`;

describe('ATT001 softmax output changed in place at indexed positions before its product (session 49)', () => {
  it('stays silent on the cross-entropy gradient written in place (probs[arange(N), y] -= 1)', async () => {
    assert.deepEqual(await findingLines(LOSS('probs[np.arange(num_train), y] -= 1'), 'ATT001'), []);
  });

  it('stays silent when the labels are subtracted from a copy that the product then reads', async () => {
    assert.deepEqual(await findingLines(LOSS('dscores = probs.copy()\n    dscores[range(num_train), y] -= 1', 'dscores'), 'ATT001'), []);
  });

  it('reads a classes-first layout the same way (probs[y, arange(N)] -= 1, then probs.dot(X.T))', async () => {
    const src = `import numpy as np


def softmax_loss_vectorized(W, X, y, reg):
    dim, num_train = X.shape
    logits = W.dot(X)  # (C, N)
    exp_scores = np.exp(logits)
    probs = exp_scores / np.sum(exp_scores, axis=0, keepdims=True)
    probs[y, np.arange(num_train)] -= 1
    return reg * W + probs.dot(X.T) / num_train
`;
    assert.deepEqual(await findingLines(src, 'ATT001'), []);
    assert.deepEqual(await findingLines(src.replace('    probs[y, np.arange(num_train)] -= 1\n', ''), 'ATT001'), [8]);
  });

  it('still reports the product when nothing changes the weights before it', async () => {
    assert.deepEqual(await findingLines(LOSS('pass'), 'ATT001'), [8]);
  });

  it('still reports the product when the picked positions are filled (a mask), not shifted', async () => {
    assert.deepEqual(await findingLines(LOSS('probs[np.arange(num_train), y] = 0'), 'ATT001'), [8]);
  });

  it('still reports the product when the in-place write comes after it', async () => {
    const src = LOSS('pass').replace('    return loss, dW', '    probs[np.arange(num_train), y] -= 1\n    return loss, dW');
    assert.deepEqual(await findingLines(src, 'ATT001'), [8]);
  });

  it('reports the softmax bound again after the write, whose weights the product then reads unchanged', async () => {
    assert.deepEqual(
      await findingLines(LOSS('probs[np.arange(num_train), y] -= 1\n    probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)'), 'ATT001'),
      [11],
    );
  });

  it('reads the softmax of a helper of the file the same way (the write in the caller, after the call)', async () => {
    const src = (between: string): string => `import numpy as np


def softmax_rows(scores):
    e = np.exp(scores - np.max(scores, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def softmax_loss(W, X, y):
    num_train = X.shape[0]
    scores = X.dot(W)  # (N, C)
    probs = softmax_rows(scores)  # (N, C)
    ${between}
    return X.T.dot(probs) / num_train
`;
    assert.deepEqual(await findingLines(src('probs[np.arange(num_train), y] -= 1'), 'ATT001'), []);
    assert.deepEqual(await findingLines(src('pass'), 'ATT001'), [6]);
  });
});
