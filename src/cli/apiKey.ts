import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import type { CliIo } from './io.js';

/**
 * The API key: COLLECT_API_KEY, or the first line of --api-key-file. There is no flag that
 * takes the key itself (it would land in shell history and process lists).
 */
export function loadApiKey(io: CliIo, file: string | undefined): string {
  let key: string | undefined;
  if (file !== undefined) {
    let text: string;
    try {
      const mode = statSync(file).mode;
      if ((mode & 0o077) !== 0) io.stderr.write(`collect: warning: ${file} can be read by others than its owner; chmod 600 ${file}\n`);
      text = readFileSync(file, 'utf8');
    } catch (cause) {
      throw new UsageError(`--api-key-file ${file}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, 'check the path of the key file');
    }
    key = text.split(/\r?\n/)[0]?.trim();
  } else {
    key = io.env.COLLECT_API_KEY?.trim();
  }
  if (!key) {
    throw new UsageError('no API key: set COLLECT_API_KEY or give --api-key-file PATH', 'or add --dry-run to check without sending');
  }
  return key;
}

/** Removes every occurrence of the key from a text before it is shown or written anywhere. */
export function redactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  return (text) => text.split(secret).join('[REDACTED]');
}
