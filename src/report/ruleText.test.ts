import { describe, expect, it } from 'vitest';
import { orderInvalidRule } from '../flow/rules/orderInvalid.js';
import { recordCheckCodes } from './issueCodes.js';
import { ruleText } from './ruleText.js';

describe('ruleText', () => {
  it("gives a flow rule's words and fix, a record check's words, nothing for a code without words", () => {
    expect(ruleText('order-invalid')).toEqual({
      catches: orderInvalidRule.catches,
      fix: orderInvalidRule.fix,
    });
    expect(ruleText('required')).toEqual({ catches: recordCheckCodes.required });
    expect(ruleText('phone-digits')).toBeUndefined();
    expect(ruleText('constructor')).toBeUndefined();
    expect(ruleText('__proto__')).toBeUndefined();
  });
});
