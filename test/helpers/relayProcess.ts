import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

/** A `collect relay` process run from dist/, its JSON log lines collected as they come. */
export interface RelayProcess {
  child: ChildProcess;
  logs: Record<string, unknown>[];
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once a log line matches (rejects if the process ends first). */
  waitFor: (match: (line: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>>;
}

/** Starts `collect relay ARGS` (JSON logs); `nodeArgs` go to node itself (a heap limit). */
export function startRelay(args: string[], stdin?: string, nodeArgs: string[] = []): RelayProcess {
  const child = spawn(
    process.execPath,
    [...nodeArgs, 'dist/cli/main.js', 'relay', '--log-format', 'json', ...args],
    {
      env: { PATH: process.env.PATH ?? '', COLLECT_API_KEY: 'k-relay-0123' },
    },
  );
  const logs: Record<string, unknown>[] = [];
  let out = '';
  let partial = '';
  const watchers: (() => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ state: 'text', message: line });
      }
    }
    for (const watch of [...watchers]) watch();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      for (const watch of [...watchers]) watch();
      resolve({ code, signal });
    }),
  );
  if (stdin !== undefined) child.stdin!.end(stdin);
  const waitFor = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = logs.find(match);
        if (found) {
          watchers.splice(watchers.indexOf(check), 1);
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          watchers.splice(watchers.indexOf(check), 1);
          reject(new Error(`relay ended before the awaited log line: ${JSON.stringify(logs)}`));
        }
      };
      watchers.push(check);
      check();
    });
  return { child, logs, stdout: () => out, exited, waitFor };
}

/** Rows of the outbox with the relay's columns. */
export async function outboxRows(url: string, table = 'collect_outbox') {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      id: string;
      endpoint: string;
      body: Record<string, unknown>;
      relay_state: string | null;
      relay_reason: { code: string; message: string } | null;
    }>(`SELECT id, endpoint, body, relay_state, relay_reason FROM ${table} ORDER BY id`);
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  } finally {
    await client.end();
  }
}

/** Inserts events into the outbox, each in its own statement (as an application's transactions would). */
export async function insertEvents(
  url: string,
  events: { endpoint: string; body: object }[],
  table = 'collect_outbox',
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const event of events)
      await client.query(`INSERT INTO ${table} (endpoint, body) VALUES ($1, $2)`, [
        event.endpoint,
        event.body,
      ]);
  } finally {
    await client.end();
  }
}

/** Waits until `check` holds, polling; the test's own timeout bounds it. */
export async function until(check: () => Promise<boolean> | boolean, everyMs = 50): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
