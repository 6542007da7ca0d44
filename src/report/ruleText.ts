import { flowRules } from '../flow/rules/index.js';
import { recordCheckCodes } from './issueCodes.js';

/** What an issue code catches and, for a flow rule, its fix: words true of every issue of the code. */
export interface RuleText {
  catches: string;
  fix?: string;
}

const flowRuleByCode = new Map(flowRules.map((rule) => [rule.code, rule]));

/**
 * The words of a code's rule (a flow rule's, or a record check's), for a group of its issues; undefined for a
 * code with none.
 */
export function ruleText(code: string): RuleText | undefined {
  const flow = flowRuleByCode.get(code);
  if (flow) return { catches: flow.catches, fix: flow.fix };
  const check = Object.hasOwn(recordCheckCodes, code) ? recordCheckCodes[code] : undefined;
  return check === undefined ? undefined : { catches: check };
}
