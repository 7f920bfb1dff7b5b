// Every rule, in code order. Adding a rule: write rules/ATT00x-name.ts exporting a Rule, list it here,
// run `npx tsx scripts/gen-rule-docs.ts` to write its page, and add fixtures under test/unit/lint/fixtures/ATT00x/.
import type { RuleCode } from '../types';
import { ATT001 } from './ATT001-softmax-dim';
import { ATT002 } from './ATT002-mask-polarity';
import { ATT003 } from './ATT003-missing-scale';
import { ATT004 } from './ATT004-wrong-scale';
import { ATT005 } from './ATT005-key-transpose';
import { ATT006 } from './ATT006-mask-after-softmax';
import { ATT007 } from './ATT007-fill-value';
import { ATT008 } from './ATT008-causal-sdpa';
import type { Rule } from './rule';

export const RULES: readonly Rule[] = [ATT001, ATT002, ATT003, ATT004, ATT005, ATT006, ATT007, ATT008];

export function ruleByCode(code: RuleCode): Rule {
  const r = RULES.find((x) => x.meta.code === code);
  if (!r) throw new Error(`unknown rule code ${code}`);
  return r;
}

export type { Rule, RuleMeta, RuleDocs } from './rule';
