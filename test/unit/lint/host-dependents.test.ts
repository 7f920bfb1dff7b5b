// Which open documents the editor re-lints when a workspace file changes (src/host/lint/dependents.ts).
import { strict as assert } from 'node:assert';
import { DependentIndex } from '../../../src/host/lint/dependents';

describe('lint: documents depending on workspace files', () => {
  it('lists the documents whose last lint read a file of the same workspace, and forgets closed ones', () => {
    const idx = new DependentIndex();
    idx.record('file:///ws/pkg/model.py', '/ws', ['pkg/utils.py', 'pkg/__init__.py']);
    idx.record('file:///ws/train.py', '/ws', ['pkg/model.py']);
    idx.record('file:///other/model.py', '/other', ['pkg/utils.py']);
    assert.deepEqual(idx.dependentsOf('/ws', 'pkg/utils.py'), ['file:///ws/pkg/model.py']);
    assert.deepEqual(idx.dependentsOf('/ws', 'pkg/model.py'), ['file:///ws/train.py']);
    assert.deepEqual(idx.dependentsOf('/ws', 'pkg/nothing.py'), []);
    // A later lint that read nothing (the import was removed) replaces the earlier list.
    idx.record('file:///ws/pkg/model.py', '/ws', []);
    assert.deepEqual(idx.dependentsOf('/ws', 'pkg/utils.py'), []);
    idx.forget('file:///ws/train.py');
    assert.deepEqual(idx.dependentsOf('/ws', 'pkg/model.py'), []);
  });
});
