import { UsageError } from '../core/errors.js';
import { readConfigFile } from '../decode/configFile.js';
import type { CliIo } from '../terminal/io.js';

/** Shorter keys are refused: redacting them would blank out ordinary words ("s[REDACTED]ipped" for the key "k"). */
export const MIN_KEY_LENGTH = 8;

/** A key file holds one key: anything larger is not one (/dev/zero would be read without end). */
export const MAX_KEY_FILE_BYTES = 4096;

/**
 * Reads a key file the way ssh reads a private key: refused when others than its owner can read
 * it. Only a regular file of at most 4 KiB (configFile.ts).
 */
function readKeyFile(file: string): string {
  const bytes = readConfigFile(file, {
    option: '--api-key-file',
    maxBytes: MAX_KEY_FILE_BYTES,
    limit: '4 KiB',
    holds: 'a key file holds one key',
    tooLargeHint: `keep only the key in ${file}`,
    pathHint: 'check the path of the key file',
    regularHint: 'put the key alone in a file only you can read (chmod 600) and name that file',
    check(info) {
      if (process.platform !== 'win32' && (info.mode & 0o077) !== 0)
        throw new UsageError(
          `--api-key-file ${file}: its permissions (` +
            `${(info.mode & 0o777).toString(8).padStart(4, '0')}) let others than its owner read the ` +
            `key; refused`,
          `chmod 600 ${file}`,
        );
    },
  });
  const text = bytes.toString('utf8');
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > 1) {
    throw new UsageError(
      `--api-key-file ${file}: has ${lines.length} lines; a key file holds the key alone, on one line`,
      `keep only the key in ${file}`,
    );
  }
  return lines[0]?.trim() ?? '';
}

/** Why a text cannot be an API key, without showing any of it; undefined when it can be one. */
export function keyProblem(key: string): string | undefined {
  if (/[\r\n]/.test(key)) return 'has several lines; a key is one line';
  const control = [...key].findIndex((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
  if (control >= 0)
    return `contains a control character (at position ${control + 1}), so it cannot go in an HTTP header`;
  if (/\s/.test(key)) return 'contains a space';
  if (/[^\u0021-\u007e]/.test(key))
    return 'contains characters outside printable ASCII, so it cannot go in an HTTP header';
  if (key.length < MIN_KEY_LENGTH)
    return (
      `is ${key.length} character${key.length === 1 ? '' : 's'} long, too short to be a key (at ` +
      `least ${MIN_KEY_LENGTH})`
    );
  return undefined;
}

/**
 * The API key: COLLECT_API_KEY, or the one line of --api-key-file. There is no flag that
 * takes the key itself (it would land in shell history and process lists). A text that
 * cannot be a key is refused before anything is sent.
 */
export function loadApiKey(io: CliIo, file: string | undefined): string {
  const key = file !== undefined ? readKeyFile(file) : io.env.COLLECT_API_KEY?.trim();
  const source = file !== undefined ? `the key in ${file}` : 'COLLECT_API_KEY';
  if (!key) {
    throw new UsageError(
      file !== undefined
        ? `--api-key-file ${file} is empty`
        : 'no API key: set COLLECT_API_KEY or give --api-key-file PATH',
      'or add --dry-run to check without sending',
    );
  }
  const problem = keyProblem(key);
  if (problem)
    throw new UsageError(`${source} ${problem}`, `give the API key exactly as the service issued it`);
  return key;
}

/**
 * The key to hide in a run that does not send (a dry run, any other command): COLLECT_API_KEY when
 * it could be a key. A transform or an input may still quote it, and it is never shown.
 */
export function keyInEnvironment(env: CliIo['env']): string | undefined {
  const key = env.COLLECT_API_KEY?.trim();
  return key && keyProblem(key) === undefined ? key : undefined;
}

const base64Variants = (bytes: Buffer): string[] => {
  // The key's encoding inside a longer base64 text depends on where it starts modulo 3: keep,
  // for each of the 3 offsets, the characters that depend on the key's bytes alone.
  const variants: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const start = offset === 0 ? 0 : offset + 1; // characters mixing padding bytes with the key's first byte
    const usable = Math.floor(((offset + bytes.length) * 8) / 6); // characters made of full 6-bit groups
    const core = encoded.slice(start, usable);
    if (core.length >= MIN_KEY_LENGTH) variants.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return variants;
};

/**
 * Every form the key could be echoed in: as is, JSON-escaped, URL-encoded (either hex case), base64 and
 * base64url at any alignment.
 */
export function keyForms(secret: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const url = encodeURIComponent(secret);
  const forms = new Set<string>([
    secret,
    json(secret),
    json(json(secret)),
    url,
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    url.replace(/%20/g, '+'),
  ]);
  for (const variant of base64Variants(Buffer.from(secret, 'utf8'))) forms.add(variant);
  for (const form of [...forms]) forms.add(form.replace(/\//g, '\\/')); // JSON that escapes slashes
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
}

/** Removes every form of the key from a text before it is shown or written anywhere. */
export function redactor(secret: string | undefined): (text: string) => string {
  if (!secret) return (text) => text;
  const forms = keyForms(secret);
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join('[REDACTED]');
    return result;
  };
}

/**
 * The redactor for a stream of text cut anywhere (a command's output): each piece is redacted
 * and given back but for its end where that could begin a form of the key, held until the next
 * piece (or `end`) says; so a key cut in two still never passes, and nothing else waits.
 */
export function streamRedactor(secret: string): { write: (text: string) => string; end: () => string } {
  const forms = keyForms(secret);
  const redact = redactor(secret);
  let held = '';
  const heldBack = (text: string) => {
    let hold = 0;
    for (const form of forms)
      for (let length = Math.min(form.length - 1, text.length); length > hold; length--)
        if (text.endsWith(form.slice(0, length))) {
          hold = length;
          break;
        }
    return hold;
  };
  return {
    write: (text) => {
      const whole = redact(held + text);
      const hold = heldBack(whole);
      held = whole.slice(whole.length - hold);
      return whole.slice(0, whole.length - hold);
    },
    end: () => {
      const rest = held;
      held = '';
      return redact(rest);
    },
  };
}
