import { onTestFinished } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Reply =
  { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | 'reset';

/** A scriptable HTTP server on 127.0.0.1 that records every request it gets. */
export async function startServer(handler: (request: SeenRequest, count: number) => Reply | Promise<Reply>) {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
      };
      requests.push(seen);
      const reply = await handler(seen, requests.length);
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A clock whose sleeps return at once and are recorded. */
export function fakeClock(start = Date.parse('2025-01-01T00:00:00Z')) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** A local service that accepts every request (201), closed when the current test finishes. */
export async function acceptingService(): ReturnType<typeof startServer> {
  const server = await startServer(() => ({ status: 201, body: { message: 'ok' } }));
  onTestFinished(server.close);
  return server;
}
