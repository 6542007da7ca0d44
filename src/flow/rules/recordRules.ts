import type { FlowRule } from './rule.js';

/** Rules of docs/flow-rules.md that one record decides alone: enforced by the fraud endpoint's checks. */
export const recordRules: FlowRule[] = [
  {
    code: 'fraud-comment-required',
    severity: 'error',
    spec: '§2.2',
    appliesTo: ['fraud'],
    needsCreations: false,
    catches: 'fraud_signal_type third_party_antifraud without fraud_comment (the name of the other solution)',
    fix: 'put the name of the other anti-fraud solution in fraud_comment',
  },
  {
    code: 'fraud-comment-recommended',
    severity: 'warning',
    spec: '§2.2',
    appliesTo: ['fraud'],
    needsCreations: false,
    catches: 'fraud_signal_type other without fraud_comment',
    fix: 'describe the signal in fraud_comment',
  },
  {
    code: 'fraud-field-named-status',
    severity: 'error',
    spec: '§2.2',
    appliesTo: ['fraud'],
    needsCreations: false,
    catches: 'a fraud mark that carries status instead of fraud_signal_type',
    fix: 'rename the field status to fraud_signal_type',
  },
];
