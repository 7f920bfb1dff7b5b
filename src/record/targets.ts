// Where a Python file can be recorded from: its `if __name__ == "__main__":` guards and its pytest tests.

const MAIN_GUARD = /^if\s+__name__\s*==\s*["']__main__["']\s*:/;
const TEST_DEF = /^(\s*)(?:async\s+)?def\s+(test_\w*)\s*\(/;
const CLASS_DEF = /^(\s*)class\s+(Test\w*)\s*[(:]/;

export interface TestAt {
  /** pytest node id relative to the file: "test_x" or "TestModel::test_x". */
  name: string;
  line: number;
}

/** Tests (module-level or in Test* classes) and main guards of a Python source, by 0-based line. */
export function findTargets(text: string): { mains: number[]; tests: TestAt[] } {
  const mains: number[] = [];
  const tests: TestAt[] = [];
  let cls: { indent: number; name: string; body: number | null } | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const indent = line.length - line.trimStart().length;
    if (cls && indent <= cls.indent) cls = null;
    if (cls && cls.body === null) cls.body = indent; // methods sit at the indentation of the class body
    const [, classIndent, className = ''] = CLASS_DEF.exec(line) ?? [];
    if (classIndent?.length === 0) {
      cls = { indent: 0, name: className, body: null };
      return;
    }
    if (MAIN_GUARD.test(line)) mains.push(i);
    const [, testIndent, testName = ''] = TEST_DEF.exec(line) ?? [];
    if (testIndent?.length === 0) tests.push({ name: testName, line: i });
    else if (testIndent !== undefined && cls && testIndent.length === cls.body) tests.push({ name: `${cls.name}::${testName}`, line: i });
  });
  return { mains, tests };
}
