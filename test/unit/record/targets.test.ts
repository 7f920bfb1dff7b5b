import { strict as assert } from 'node:assert';
import { findTargets } from '../../../src/record/targets';

describe('record: CodeLens targets', () => {
  it('finds main guards, module-level tests and methods of top-level Test classes (not nested functions) with their node ids', () => {
    const src = [
      'import torch',
      'def test_top():',
      '    pass',
      'class TestModel:',
      '    def test_forward(self):',
      '        def test_inner(): pass',
      '    async def test_async(self): pass',
      'class Helper:',
      '    def test_not_collected(self): pass',
      'def helper_test(): pass',
      'if __name__ == "__main__":',
      '    main()',
      "if __name__ == '__main__' :",
    ].join('\n');
    const { mains, tests } = findTargets(src);
    assert.deepEqual(mains, [10, 12]);
    assert.deepEqual(tests, [
      { name: 'test_top', line: 1 },
      { name: 'TestModel::test_forward', line: 4 },
      { name: 'TestModel::test_async', line: 6 },
    ]);
  });
});
