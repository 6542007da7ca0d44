import { Pool } from 'undici';
import { endpointPath } from './serviceUrl.js';

/** One attempt's result: an answer, or a failure to get one. */
export type Attempt =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string };

export interface HttpClient {
  send(method: 'POST' | 'PUT', path: string, body: string, timeoutMs: number): Promise<Attempt>;
  close(): Promise<void>;
}

/**
 * Requests to the service over a keep-alive pool, with the key only in the Authorization header.
 * Redirects are never followed, so the key never travels to another host.
 */
export function createHttpClient(base: URL, apiKey: string, connections: number): HttpClient {
  const pool = new Pool(base.origin, { connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
  return {
    async send(method, path, body, timeoutMs) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        const response = await pool.request({ method, path: endpointPath(base, path), headers, body, signal: controller.signal });
        const text = await response.body.text();
        return { kind: 'answer', status: response.statusCode, headers: response.headers, text };
      } catch (cause) {
        if (controller.signal.aborted) return { kind: 'timeout' };
        const error = cause as NodeJS.ErrnoException;
        return { kind: 'network', message: `${error.code ?? error.name}: ${error.message}` };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => pool.close(),
  };
}
