import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile, startWorker } from './singleBinary.js';

// In the binary the other branch runs: test/binary.test.ts checks it there.
const dir = mkdtempSync(join(tmpdir(), 'collect-single-binary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('outside the single binary', () => {
  it('starts a worker from its file, with its options', async () => {
    const script = join(dir, 'echo.mjs');
    writeFileSync(
      script,
      "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage(workerData);\n",
    );
    const worker = startWorker(pathToFileURL(script), { workerData: { n: 7 } });
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(message).toEqual({ n: 7 });
  });

  it('imports a module from a file: URL', async () => {
    const module = join(dir, 'answer.mjs');
    writeFileSync(module, 'export default 42;\n');
    expect(await importFile(pathToFileURL(module).href)).toMatchObject({ default: 42 });
  });
});
