import { REASON_FIELD } from '../core/rejectsField.js';
import { isRecord } from '../schema/checks.js';

/** A record of a rejects file fed back, without the reasons field the rejects file added. */
export function withoutReason(value: unknown): unknown {
  if (isRecord(value) && Object.hasOwn(value, REASON_FIELD)) delete value[REASON_FIELD];
  return value;
}
