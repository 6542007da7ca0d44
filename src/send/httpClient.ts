import { Pool, util, type Dispatcher } from 'undici';
import { endpointPath } from './serviceUrl.js';

/** One attempt's result: an answer, or a failure to get one. */
export type Attempt =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string };

export interface HttpClient {
  send(method: 'POST' | 'PUT', path: string, body: string): Promise<Attempt>;
  close(): Promise<void>;
}

/**
 * Requests to the service over a keep-alive pool, with the key only in the Authorization header.
 * Redirects are never followed, so the key never travels to another host.
 */
export function createHttpClient(base: URL, apiKey: string, connections: number, timeoutMs: number): HttpClient {
  // undici's own timers: the answer's headers, and each part of its body, within the timeout.
  const pool = new Pool(base.origin, { connections, pipelining: 1, keepAliveTimeout: 10_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return {
    // dispatch with a handler, not request(): small answers need no body stream, which halves
    // the client's work per request (bench/run.js measures it against a request() loop).
    send: (method, path, body) => new Promise<Attempt>((resolve) => {
      let status = 0;
      let rawHeaders: Buffer[] = [];
      const chunks: Buffer[] = [];
      const fail = (cause: unknown) => {
        const error = cause as NodeJS.ErrnoException;
        if (error.code === 'UND_ERR_HEADERS_TIMEOUT' || error.code === 'UND_ERR_BODY_TIMEOUT') resolve({ kind: 'timeout' });
        else resolve({ kind: 'network', message: `${error.code ?? error.name}: ${error.message}` });
      };
      try {
        pool.dispatch({ method, path: endpointPath(base, path), headers, body }, {
          onConnect() {},
          onHeaders(statusCode: number, headerList: Buffer[] | string[] | null) {
            status = statusCode;
            rawHeaders = (headerList ?? []) as Buffer[];
            return true;
          },
          onData(chunk: Buffer) {
            chunks.push(chunk);
            return true;
          },
          onComplete() {
            const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
            resolve({ kind: 'answer', status, headers: util.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>, text });
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
