// Session 47 (eng-s47a): ATT003 and a test's reference that is compared with the kernel through a helper of the file.
//
// Class: a test function (`test_…`) computes reference scores by hand (`torch.einsum(...)`, no 1/sqrt(d): the kernel
// under test returns raw scores) and hands them, with the kernel's, to a module-level helper of the file that asserts
// their closeness under a tolerance (`def compare(name, ref, tri): ... assert abserr < 0.05 and relerr < 0.1`), as
// the public ledger's row 11 (a raw-score kernel's test) does. The reference must reproduce the kernel's convention,
// and the test fails when the two differ: a test's reference, as one that calls `assert_allclose` itself. Read from
// the helper's code (an assertion of a difference under a tolerance; `abserr`/`relerr` now count as error names), not
// from its name. A helper that only prints the errors asserts nothing, and the same reference is reported.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TEST = (check: string): string => `import numpy as np
import torch

from kernels import raw_scores


def compare(name, ref, tri):
    err = torch.abs(ref - tri)
    abserr = np.quantile(err.flatten().float().cpu().numpy(), 0.99)
    relerr = (err / (torch.abs(ref) + 1e-6)).max().item()
    print(name, abserr, relerr)
    ${check}


def test_raw_scores_backward():
    q = torch.randn(2, 128, 64, requires_grad=True)
    k = torch.randn(2, 128, 64, requires_grad=True)
    dout = torch.randn(2, 128, 128)
    scores = raw_scores(q, k)
    torch.softmax(scores, dim=-1).backward(dout)
    tri_dq = q.grad.clone()
    q.grad = None
    ref = torch.einsum("bqd,bkd->bqk", q, k)
    torch.softmax(ref, dim=-1).backward(dout)
    compare("scores", ref, scores)
    compare("dq", q.grad, tri_dq)
`;

describe('ATT003 test reference compared through a helper of the file (session 47)', () => {
  it('is silent when the helper asserts the difference under a tolerance', async () => {
    assert.deepEqual(await findingLines(TEST('assert abserr < 0.05 and relerr < 0.1'), 'ATT003'), []);
    assert.deepEqual(await findingLines(TEST('torch.testing.assert_close(ref, tri, atol=1e-2, rtol=1e-2)'), 'ATT003'), []);
  });

  it('reports the same reference when the helper only prints the errors', async () => {
    assert.deepEqual(await findingLines(TEST('return abserr, relerr'), 'ATT003'), [24]);
  });

  it('reads only a helper of the same file: one imported from another file is not followed', async () => {
    const UTILS = `import torch


def compare(name, ref, tri):
    assert torch.allclose(ref, tri, atol=1e-2)
`;
    const src = TEST('return abserr, relerr')
      .replace('from kernels import raw_scores', 'from kernels import raw_scores\nfrom check_utils import check')
      .replace(/compare\("/g, 'check("');
    assert.deepEqual(await workspaceFindingLines({ 'check_utils.py': UTILS, 'test_kernels.py': src }, 'test_kernels.py', 'ATT003'), [25]);
  });
});
