import { strict as assert } from 'node:assert';
import { internalErrors, linter } from './helpers';

// Index reads in the analysis that user code can send past the end (noUncheckedIndexedAccess on src/lint).
describe('lint: index reads of user code', () => {
  it('torch.cat of an empty list is analysed (it used to fail the whole file with ATT000)', async () => {
    const before = internalErrors.length;
    const source = [
      'import torch',
      '',
      'def attend(q, k):',
      '    scores = q @ k.transpose(-2, -1)',
      '    extra = torch.cat([], dim=-1)',
      '    return torch.softmax(scores + extra, dim=-1)',
      '',
      'def block(x, w_q, w_k):',
      '    return attend(x @ w_q, x @ w_k)',
      '',
    ].join('\n');
    const findings = (await linter()).lintPython(source);
    assert.deepEqual(
      findings.map((f) => f.code),
      ['ATT003'],
      findings.map((f) => f.message).join('\n'),
    );
    assert.equal(internalErrors.length, before);
  });
});
