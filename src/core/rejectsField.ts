/**
 * The field or column a rejects file adds with the reasons; ignored on input, so a fixed rejects file can be
 * fed back.
 */
export const REASON_FIELD = 'collect_reason';
