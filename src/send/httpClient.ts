import { Pool, util, type Dispatcher } from 'undici';
import { Deadlines } from './deadlines.js';
import { MAX_ANSWER_BYTES } from './responseBody.js';
import { endpointPath } from './serviceUrl.js';

/** One attempt's result: an answer, or a failure to get one. */
export type Attempt =
  | {
      kind: 'answer';
      status: number;
      headers: Record<string, string | string[] | undefined>;
      text: string;
      truncated?: true;
    }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string; code: string };

export interface HttpClient {
  /** The service's base URL, for messages. */
  readonly base: URL;
  send(method: 'POST' | 'PUT', path: string, body: string): Promise<Attempt>;
  close(): Promise<void>;
}

/**
 * An answer whose headers are parsed only when asked for (a redirect, a Retry-After): an accepted answer
 * never needs them.
 */
class Answer {
  readonly kind = 'answer';
  declare readonly truncated?: true;
  private parsed: Record<string, string | string[] | undefined> | undefined;

  constructor(
    readonly status: number,
    readonly text: string,
    private readonly raw: Buffer[],
    truncated: boolean,
  ) {
    if (truncated) this.truncated = true;
  }

  get headers(): Record<string, string | string[] | undefined> {
    return (this.parsed ??= util.parseHeaders(this.raw) as Record<string, string | string[] | undefined>);
  }
}

/** The code of a connection failure: the error's own, or its cause's (fetch-style wrappers). */
function errorCode(error: NodeJS.ErrnoException & { cause?: unknown }): string {
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  return error.code ?? cause?.code ?? error.name;
}

/**
 * Requests to the service over a keep-alive pool, with the key only in the Authorization header.
 * Redirects are never followed, so the key never travels to another host. Each attempt has one
 * deadline for the whole exchange (headers and body: a trickling body cannot stretch it), and at
 * most MAX_ANSWER_BYTES of an answer are kept; the rest is not read.
 */
export function createHttpClient(
  base: URL,
  apiKey: string,
  connections: number,
  timeoutMs: number,
  maxAnswerBytes = MAX_ANSWER_BYTES,
): HttpClient {
  // undici's own timers stay as a second line; the deadline below is the one that counts.
  const pool = new Pool(base.origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const prefix = endpointPath(base, '');
  const deadlines = new Deadlines(timeoutMs);
  return {
    base,
    // dispatch with a handler, not request(): small answers need no body stream.
    send: (method, path, body) =>
      new Promise<Attempt>((resolve) => {
        let status = 0;
        let rawHeaders: Buffer[] = [];
        const chunks: Buffer[] = [];
        let kept = 0;
        let settled = false;
        let abort: ((reason?: Error) => void) | undefined;
        const finish = (attempt: Attempt) => {
          if (settled) return;
          settled = true;
          deadline.cancel();
          resolve(attempt);
        };
        const answer = (truncated: boolean): Attempt => {
          let bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          // A cut can fall inside an echoed key, leaving a part no redaction recognises: drop a key's worth
          // (in any encoding) before it.
          if (truncated) bytes = bytes.subarray(0, Math.max(0, bytes.length - (apiKey.length * 6 + 16)));
          return new Answer(status, bytes.toString('utf8'), rawHeaders, truncated);
        };
        const deadline = deadlines.add(() => {
          finish({ kind: 'timeout' });
          abort?.(new Error('deadline'));
        });
        const fail = (cause: unknown) => {
          const error = cause as NodeJS.ErrnoException;
          if (error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'UND_ERR_BODY_TIMEOUT')
            finish({ kind: 'timeout' });
          else
            finish({
              kind: 'network',
              code: errorCode(error),
              message: `${errorCode(error)}: ${error.message}`,
            });
        };
        try {
          pool.dispatch({ method, path: prefix + path, headers, body }, {
            onConnect(abortRequest: (reason?: Error) => void) {
              abort = abortRequest;
              if (settled) abortRequest(new Error('deadline'));
            },
            onHeaders(statusCode: number, headerList: Buffer[] | string[] | null) {
              status = statusCode;
              rawHeaders = (headerList ?? []) as Buffer[];
              return true;
            },
            onData(chunk: Buffer) {
              if (settled) return false;
              const room = maxAnswerBytes - kept;
              if (chunk.length > room) {
                // Enough of it: the answer is what was kept, and the connection is dropped, not drained.
                if (room > 0) chunks.push(chunk.subarray(0, room));
                kept = maxAnswerBytes;
                finish(answer(true));
                abort?.(new Error('answer too large'));
                return false;
              }
              chunks.push(chunk);
              kept += chunk.length;
              return true;
            },
            onComplete() {
              finish(answer(false));
            },
            onError: fail,
          } as unknown as Dispatcher.DispatchHandler);
        } catch (cause) {
          fail(cause);
        }
      }),
    close: () => pool.close(),
  };
}
