import pg from 'pg';
import { diagnose } from '../../core/operationalError.js';
import { StateError } from '../stateErrors.js';

/**
 * How long a run tries to reach the database again after a connection dropped: a restart or a failover, not
 * an outage.
 */
export const RECONNECT_MS = 10_000;

const LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether a failure means the connection is gone (terminated by an administrator, a server
 * restart, the network), not that a statement was wrong: class 08 and the shutdown codes, or
 * node-postgres's own words for a connection it has lost.
 */
export function connectionLost(cause: unknown): boolean {
  if (cause instanceof StateError) return false; // collect's own verdict on a connection, already made
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (code.startsWith('08') || LOST_CODES.has(code))) return true;
  const message = (cause as { message?: unknown } | null)?.message;
  return (
    typeof message === 'string' &&
    /Connection terminated|not queryable|Client was closed|connection error/i.test(message)
  );
}

/** Told when a connection is lost (its 'error', its 'end'), with the connection. */
export type OnLost = (client: pg.Client) => void;

async function open(url: string, onLost?: OnLost): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'collect' });
  client.on('error', () => onLost?.(client)); // a lost connection also fails the next query, which says so
  client.on('end', () => onLost?.(client));
  await client.connect();
  return client;
}

/**
 * One connection to the state; a failure to make it is a StateError naming the state (`where`, without its
 * password).
 */
export async function connectPg(url: string, where: string, onLost?: OnLost): Promise<pg.Client> {
  try {
    return await open(url, onLost);
  } catch (cause) {
    throw (
      pgStateError(cause, where) ??
      new StateError(
        `cannot reach the state ${where}: ${(cause as Error).message}`,
        'check the URL, that the server is up, and the user and password (in the URL or PGPASSWORD)',
      )
    );
  }
}

/** A PostgreSQL or network failure of the state as a StateError with its cause and fix (core/operationalError.ts). */
export function pgStateError(cause: unknown, where: string): StateError | undefined {
  if (cause instanceof StateError) return cause;
  const known = diagnose(cause, { name: `the state ${where}` });
  if (known === undefined) return undefined;
  // What a state's user needs, for the owner who grants it.
  const needs =
    known.kind === 'privilege'
      ? ': the state needs CREATE on its schema on first use, then SELECT, INSERT, UPDATE and DELETE on its tables'
      : '';
  return new StateError(known.message, `${known.hint}${needs}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new connection after one was lost, tried again for RECONNECT_MS; then a StateError saying the state was lost. */
export async function reconnectPg(
  url: string,
  where: string,
  lost: unknown,
  onLost?: OnLost,
): Promise<pg.Client> {
  const deadline = Date.now() + RECONNECT_MS;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await open(url, onLost);
    } catch (cause) {
      if (Date.now() + wait >= deadline) {
        throw new StateError(
          `the connection to the state ${where} was lost (${(lost as Error).message}) and could ` +
            `not be made again within ${RECONNECT_MS / 1000} s (${(cause as Error).message}); sending ` +
            `stopped`,
          'check the database, then run the same command again: at most twice --concurrency answers are sent again',
        );
      }
      await sleep(wait);
    }
  }
}
