import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { error, type Issue } from '../core/issue.js';

/** The largest body sent (`--max-record-bytes`): the service's body limit, as the sandbox holds it (1 MiB). */
export const MAX_EVENT_BYTES = 1024 * 1024;

/** Event bytes a replica holds in memory (queued and in flight): a read asks for no more than what is left. */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/** An event the relay cannot read at all: not JSON, not an object (standard input). */
export const unreadable = (what: string): Issue =>
  error('invalid-event', '', `the event is ${what}`, {
    hint: 'write one JSON object per line: {"endpoint": "status", "body": {...}}',
  });

/** A body over the limit: dead-lettered unread (the outbox sends its size, not its text). */
export const tooLarge = (size: number, limit: number, what = "the event's body", unit = 'bytes'): Issue =>
  error(
    'record-too-large',
    '',
    `${what} is ${size.toLocaleString('en-US')} ${unit} long, over the limit of ` +
      `${limit.toLocaleString('en-US')} ${unit}`,
    {
      hint:
        'the service refuses bodies that large: shorten the body in the outbox, then collect relay ' +
        'retry (or raise --max-record-bytes)',
    },
  );

export const tooDeep = (): Issue =>
  error('too-deep', '', `the event nests more than ${MAX_DEPTH} levels deep`, {
    hint: 'records of the service nest a few levels; check what wrote the event for runaway brackets',
  });

/** An event's value from its text, or the issue that dead-letters it (not JSON, or nested past MAX_DEPTH). */
export function parseEvent(text: string): { value: unknown } | { problem: Issue } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: unreadable('not JSON') };
  }
  // Walking or printing a value nested 100,000 deep overflows the stack: it goes no further than here.
  return nestsDeeperThan(value, MAX_DEPTH) ? { problem: tooDeep() } : { value };
}
