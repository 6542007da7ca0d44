import { isRecord } from '../schema/checks.js';

/** What is kept of an answer's body: enough for any real answer, never a runaway one in memory or in --results. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The evaluation decision of a creation's answer: the value of a top-level key ending in `decision`. */
export function readDecision(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key.endsWith('decision') && typeof value === 'string') return value;
  }
  return undefined;
}

/** The service's own words on a rejection: `error_message` as text, or as field -> messages. */
export function serviceMessage(body: unknown, text: string): string {
  if (isRecord(body)) {
    const message = body.error_message ?? body.message;
    if (typeof message === 'string') return message;
    if (isRecord(message)) {
      return Object.entries(message)
        .map(
          ([field, messages]) =>
            `${field}: ${Array.isArray(messages) ? messages.join('; ') : String(messages)}`,
        )
        .join(', ');
    }
  }
  const trimmed = text.trim();
  return trimmed === '' ? 'no message' : trimmed.slice(0, 300);
}

/** An answer in the service's own error format (`error_message`), as opposed to a web server's or a proxy's page. */
export function isServiceError(body: unknown): boolean {
  return isRecord(body) && 'error_message' in body;
}

export function parseBody(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
