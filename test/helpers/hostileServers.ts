import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Misbehaving services on 127.0.0.1, one per way a real one goes wrong; each counts what it got. */
export interface HostileServer {
  url: string;
  port: number;
  /** Requests that reached it. */
  hits: number;
  close(): Promise<void>;
}

async function listen(server: Server, state: { hits: number }): Promise<HostileServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends its headers at once, then the body one byte every `intervalMs`, forever unless `bytes` is given. */
export function tricklingServer(intervalMs = 200, bytes = Number.POSITIVE_INFINITY): Promise<HostileServer> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    state.hits++;
    req.resume();
    res.writeHead(201, { 'content-type': 'application/json' });
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed || sent >= bytes) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(' ');
      sent++;
    }, intervalMs);
    res.on('close', () => clearInterval(timer));
  });
  return listen(server, state);
}

/** Answers 201 with a body of `megabytes` MiB, streamed as fast as the client takes it; counts the bytes it wrote. */
export function hugeAnswerServer(megabytes: number): Promise<HostileServer & { written: () => number }> {
  const state = { hits: 0 };
  let written = 0;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = createServer((req, res) => {
    state.hits++;
    req.resume();
    res.writeHead(201, { 'content-type': 'text/plain' });
    let left = megabytes * 16;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  return listen(server, state).then((base) => Object.assign(base, { written: () => written }));
}

/** Answers every request with the same status and headers (a redirect, 404 everywhere, a long Retry-After). */
export function sameAnswerServer(
  status: number,
  headers: Record<string, string> = {},
  body = '',
): Promise<HostileServer> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    state.hits++;
    req.resume();
    req.on('end', () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  return listen(server, state);
}

/** Answers 400 with a message that echoes the request's bearer key in the given encodings. */
export function echoingServer(encode: (key: string) => string[]): Promise<HostileServer> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    state.hits++;
    req.resume();
    req.on('end', () => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(400, { 'content-type': 'application/json' });
      // Written by hand so that each encoding reaches the client as the encoding itself.
      res.end(
        `{"error_message": "bad key ${encode(key).join(' ')}", "echo": ${JSON.stringify(encode(key))}}`,
      );
    });
  });
  return listen(server, state);
}

/** A port on 127.0.0.1 that nothing listens on: connections are refused. */
export async function refusingPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
