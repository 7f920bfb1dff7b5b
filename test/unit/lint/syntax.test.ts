// The syntax layer: splitting a file into top-level blocks, choosing the blocks worth parsing, copying a
// tree-sitter tree with as few WebAssembly calls as possible (token ranges read off the source must equal
// the parser's), and reusing copied blocks across parses (an edited file must lint exactly like a fresh one).
import { strict as assert } from 'node:assert';
import TreeSitter = require('web-tree-sitter');
import { selectBlocks, splitTopLevel } from '../../../src/lint/syntax/blocks';
import { copyBlock, type LanguageTables, type PyNode } from '../../../src/lint/syntax/tree';
import { createPythonParser, PYTHON_FIELD_PARENTS, PYTHON_NAMED_LEAVES } from '../../../src/lint/parser';
import { createLinter } from '../../../src/lint';
import { grammar } from './helpers';

function blockTexts(src: string): string[] {
  return splitTopLevel(src).map((b) => src.slice(b.start, b.end));
}

describe('top-level blocks', () => {
  it('starts a block at every column-0 statement and keeps decorators with their definition', () => {
    const src = 'import torch\nX = 1\n\n@decorator(\n    arg)\ndef f():\n    return 1\n# comment\nclass A:\n    pass\n';
    const blocks = splitTopLevel(src);
    assert.deepEqual(blockTexts(src), ['import torch\n', 'X = 1\n\n', '@decorator(\n    arg)\ndef f():\n    return 1\n# comment\n', 'class A:\n    pass\n']);
    assert.deepEqual(
      blocks.map((b) => [b.kind, b.name]),
      [
        ['statement', undefined],
        ['statement', undefined],
        ['def', 'f'],
        ['class', 'A'],
      ],
    );
    // The blocks tile the source.
    assert.equal(blocks[0].start, 0);
    for (let i = 1; i < blocks.length; i++) assert.equal(blocks[i].start, blocks[i - 1].end);
    assert.equal(blocks[blocks.length - 1].end, src.length);
  });

  it('does not split inside strings, brackets or continuation lines', () => {
    const src = [
      'doc = """',
      'def not_a_function():',
      '"""',
      "s = 'it''s' + \"#\" + r'\\'' ",
      'x = (1,',
      '2)',
      'y = 1 + \\',
      '2',
      "z = f'{a}' # ' unbalanced quote in a comment",
      'def g(): pass',
      '',
    ].join('\n');
    assert.deepEqual(
      blockTexts(src).map((t) => t.split('\n')[0]),
      ['doc = """', "s = 'it''s' + \"#\" + r'\\'' ", 'x = (1,', 'y = 1 + \\', "z = f'{a}' # ' unbalanced quote in a comment", 'def g(): pass'],
    );
  });

  it('recovers from half-typed code at the next definition', () => {
    const src = 'def f(x):\n    y = torch.softmax(x,\n\ndef g():\n    return 2\n';
    assert.deepEqual(
      splitTopLevel(src).map((b) => b.name),
      ['f', 'g'],
    );
    // An unterminated one-line string ends with its line.
    assert.deepEqual(splitTopLevel("x = 'abc\ny = 2\n").length, 2);
  });

  it('handles \\r\\n and \\r line breaks and an empty source', () => {
    assert.deepEqual(splitTopLevel(''), []);
    assert.equal(splitTopLevel('a = 1\r\nb = 2\r\n').length, 2);
    assert.equal(splitTopLevel('a = 1\rb = 2\r').length, 2);
  });

  it('selects blocks with sites, what they refer to, their callers, imports and short statements', () => {
    const long = Array.from({ length: 60 }, (_, i) => `    v${i} = ${i}`).join('\n');
    const src = [
      'import torch',
      'def helper(q, k):',
      '    return torch.softmax(q @ k.transpose(-2, -1), dim=-1)',
      'def caller(x):',
      '    return helper(x, x)',
      'class Base:',
      '    pass',
      'class Attn(Base):',
      '    def forward(self, q, k):',
      '        return q @ k.transpose(-2, -1)',
      'def unrelated(a):',
      '    return a + 1',
      `if __name__ == "__main__":\n${long}`,
      '',
    ].join('\n');
    const blocks = splitTopLevel(src);
    const keep = selectBlocks(src, blocks);
    const kept = blocks.filter((_, i) => keep[i]).map((b) => b.name ?? src.slice(b.start, b.end).split('\n')[0]);
    assert.deepEqual(kept, ['import torch', 'helper', 'caller', 'Base', 'Attn']);
  });
});

describe('tree copy', () => {
  let parser: TreeSitter.Parser;
  let fast: LanguageTables;
  let plain: LanguageTables;
  before(async () => {
    const g = grammar();
    await TreeSitter.Parser.init({ wasmBinary: g.treeSitter });
    const lang = await TreeSitter.Language.load(g.python);
    parser = new TreeSitter.Parser();
    parser.setLanguage(lang);
    const typeNames = lang.types;
    const namedTypes = typeNames.map((_, id) => lang.nodeTypeIsNamed(id));
    plain = { typeNames, fieldNames: lang.fields, namedTypes };
    fast = {
      ...plain,
      fieldParents: typeNames.map((t) => t !== null && PYTHON_FIELD_PARENTS.has(t)),
      leafTypes: typeNames.map((t, id) => t !== null && (namedTypes[id] ? PYTHON_NAMED_LEAVES.has(t) : t !== 'is not' && t !== 'not in' && t !== 'ERROR')),
    };
  });

  const flat = (nodes: PyNode[]): PyNode[] => {
    const out: PyNode[] = [];
    const stack = [...nodes].reverse();
    while (stack.length > 0) {
      const n = stack.pop()!;
      out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
    return out;
  };

  it('reads token ranges off the source exactly where the parser puts them', () => {
    const src = [
      '# -*- coding: utf-8 -*-',
      'import torch  # trailing',
      'déjà = 1  # non-ASCII identifier',
      'x = f"{a!r:>{width}} {b:.3f} \\n {{literal}}" + rb"\\x00" \\',
      '    + """multi',
      'line"""',
      'y = a if b is not None else c not in d',
      'z = [i ** -2 for i in range(3)] @ w @ v',
      'def f(q, k, /, *args, scale: float = 1e-9, **kw) -> None:',
      '    return ...',
      'print(True, False, None, 0x1F, 1_000, 1.5j)',
      '',
    ].join('\n');
    const tree = parser.parse(src)!;
    const a = flat(copyBlock(tree.walk(), src, fast, { full: true, hasError: tree.rootNode.hasError }).nodes);
    const b = flat(copyBlock(tree.walk(), src, plain, { full: true, hasError: true }).nodes);
    tree.delete();
    assert.equal(a.length, b.length);
    for (let i = 0; i < a.length; i++) {
      assert.deepEqual(
        [a[i].type, a[i].start, a[i].end, a[i].field],
        [b[i].type, b[i].start, b[i].end, b[i].field],
        `node ${i} (${b[i].type} ${JSON.stringify(src.slice(b[i].start, b[i].end))})`,
      );
    }
  });

  it('keeps the text of string contents with escapes', async () => {
    const p = await createPythonParser(grammar());
    const src = 'spec = "b h\\tn d -> b n (h d)"\n';
    const tree = p.parse(src, { full: true });
    const content = flat(tree.root.children).find((n) => n.type === 'string_content')!;
    assert.equal(src.slice(content.start, content.end), 'b h\\tn d -> b n (h d)');
  });
});

describe('block reuse across parses', () => {
  const ATTENTION = (i: number): string => `
class Attention${i}(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)

    def forward(self, x, mask=None):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-2)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
`;
  const source = 'import torch\nimport torch.nn as nn\n' + [0, 1, 2, 3].map(ATTENTION).join('');

  it('gives the same findings after edits as a fresh linter, with blocks moved, duplicated and removed', async () => {
    const cached = await createLinter(grammar());
    const edits = [
      source,
      source.replace('import torch\n', 'import torch\nimport math\n\n\n'), // every block moves down
      source.replace('dim=-2)', 'dim=-1)'), // one block changes
      source + ATTENTION(0), // the same text twice
      source.replace(ATTENTION(1), ''), // a block disappears
      source,
    ];
    for (const text of edits) {
      const fresh = await createLinter(grammar());
      assert.deepEqual(cached.lintPython(text), fresh.lintPython(text));
    }
    assert.equal(cached.lintPython(source).filter((f) => f.code === 'ATT001').length, 4);
  });
});

describe('grammar loading', () => {
  // Language.load links the grammar into the process-wide tree-sitter runtime each time, and never gives back what it
  // took there (memory, function-table slots): a process that made a parser per project ran out of table slots, and
  // every later load or parse failed ("table index is out of bounds"). A grammar is loaded once per process.
  it('loads a grammar once per process, however many parsers are made from freshly read bytes', async () => {
    const load = TreeSitter.Language.load;
    let calls = 0;
    TreeSitter.Language.load = (input) => {
      calls++;
      return load.call(TreeSitter.Language, input);
    };
    try {
      const parsers = [];
      for (let i = 0; i < 5; i++) parsers.push(await createPythonParser(grammar()));
      assert.ok(calls <= 1, `Language.load called ${calls} times for 5 parsers of one grammar`);
      for (const p of parsers) assert.equal(p.parse('x = f(1)\n').root.children.length, 1);
    } finally {
      TreeSitter.Language.load = load;
    }
  });

  it('does not keep a grammar that failed to load: the next call with the same bytes tries again', async () => {
    const bad = { ...grammar(), python: Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0xff, 0xff]) };
    const load = TreeSitter.Language.load;
    let calls = 0;
    TreeSitter.Language.load = (input) => {
      calls++;
      return load.call(TreeSitter.Language, input);
    };
    try {
      await assert.rejects(createPythonParser(bad), /could not load the Python grammar/);
      await assert.rejects(createPythonParser(bad), /could not load the Python grammar/);
      assert.equal(calls, 2);
    } finally {
      TreeSitter.Language.load = load;
    }
  });
});
