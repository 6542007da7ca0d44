import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../core/errors.js';
import type { InputSpec } from '../../readers/openInput.js';
import type { CliIo } from '../io.js';
import { MemoryWritable } from '../memoryWritable.js';
import { executeRun, type RunFlags } from '../runCommand.js';

export interface FraudFlags extends RunFlags {
  orderId: string;
  type?: string;
  comment?: string;
  yes?: boolean;
}

async function confirm(io: CliIo, question: string): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/**
 * `collect fraud --order-id ID --type TYPE [--comment TEXT] [--yes]`: one fraud mark by hand.
 * Checked like a file record (schema and flow rules with the state: a mark for an order the
 * service rejected is refused), shown exactly, and confirmed on a terminal before it is sent.
 */
export async function fraudByHand(files: string[], flags: FraudFlags, io: CliIo): Promise<number> {
  if (files.length > 0) throw new UsageError('give either files or --order-id, not both');
  if (flags.type === undefined) throw new UsageError('--type is required with --order-id', 'one of: acquirer, manual_analysis, chargeback, third_party_antifraud, other');
  const body = { order_id: flags.orderId, fraud_signal_type: flags.type, ...(flags.comment === undefined ? {} : { fraud_comment: flags.comment }) };
  if (!flags.dryRun && !(flags.baseUrl ?? io.env.COLLECT_BASE_URL)) {
    throw new UsageError('no service to send to: give --base-url URL or set COLLECT_BASE_URL', 'or add --dry-run to check the mark without sending');
  }
  const path = join(tmpdir(), `collect-fraud-${process.pid}-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(body), { mode: 0o600 });
  const spec: InputSpec = { name: '(command line)', path, format: 'json', gzip: false };
  try {
    const check = { ...flags, dryRun: true, format: flags.format };
    if (flags.dryRun) return await executeRun([{ endpoint: 'fraud', spec }], check, io);
    const quiet = { ...io, stdout: new MemoryWritable(), stderr: new MemoryWritable() };
    const checked = await executeRun([{ endpoint: 'fraud', spec }], check, quiet);
    if (checked !== 0) {
      io.stdout.write(quiet.stdout.text);
      io.stderr.write(`${quiet.stderr.text}collect: the fraud mark was not sent\n`);
      return checked;
    }
    const target = flags.baseUrl ?? io.env.COLLECT_BASE_URL ?? '(no --base-url)';
    io.stderr.write(`POST ${target.replace(/\/+$/, '')}/v2/order/mark_fraudulent\n${JSON.stringify(body, null, 2)}\n`);
    if (!flags.yes) {
      if (io.stdin.isTTY !== true) throw new UsageError('refusing to send a fraud mark without confirmation', 'add --yes when no one is at a terminal to confirm');
      if (!(await confirm(io, 'Send this fraud mark? [y/N] '))) {
        io.stderr.write('collect: not sent\n');
        return 1;
      }
    }
    return await executeRun([{ endpoint: 'fraud', spec }], flags, io);
  } finally {
    rmSync(path, { force: true });
  }
}
