import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryWritable } from '../../test/helpers/memoryWritable.js';
import { startTestSandbox } from '../../test/helpers/sandbox.js';
import type { CliIo, StopSignal } from '../terminal/io.js';
import { writePidFile } from './pidFile.js';
import { runSession } from './sandboxSession.js';
import { tempDir } from '../../test/helpers/tempDir.js';

/** An io whose stop signals and uncaught errors the test raises itself. */
function handIo() {
  const raised: { stop?: (signal: StopSignal) => void; fatal?: (() => void) | undefined } = {};
  const io = {
    stdout: new MemoryWritable(),
    stderr: new MemoryWritable(),
    env: {},
    onStop: (handler: (signal: StopSignal) => void) => {
      raised.stop = handler;
      return () => {};
    },
    onFatal: (handler: () => void) => {
      raised.fatal = handler;
      return () => (raised.fatal = undefined);
    },
  } as unknown as CliIo;
  return { io, raised };
}

describe('a sandbox session', () => {
  it(
    'writes the report as it stands and removes its pid file when an uncaught error is about to end ' +
      'the process',
    async () => {
      const dir = tempDir('collect-session-');
      const sandbox = await startTestSandbox({ judge: { strict: false } });
      const { io, raised } = handIo();
      const pidFile = join(dir, 'sandbox.pid');
      writePidFile(pidFile);
      const session = runSession(io, sandbox, {
        report: { file: join(dir, 'report.json'), format: 'json' },
        pidFile,
      });
      await fetch(`${sandbox.url}/v2/order`, {
        method: 'PUT',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: '{"id":"Z","status":"approved"}',
      });
      raised.fatal!();
      expect(
        JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).issues.map(
          (issue: { code: string }) => issue.code,
        ),
      ).toEqual(['unknown-order']);
      expect(existsSync(pidFile)).toBe(false);
      raised.stop!('SIGTERM');
      expect(await session).toBe(1);
      expect(raised.fatal).toBeUndefined();
    },
  );
});
