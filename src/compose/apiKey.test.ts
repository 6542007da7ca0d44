import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryWritable } from '../../test/helpers/memoryIo.js';
import type { CliIo } from '../terminal/io.js';
import { keyProblem, loadApiKey, redactor, streamRedactor } from './apiKey.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const KEY = 'sk_live/Ab+c"d\\e?f=g&h';

function io(env: Record<string, string> = {}): CliIo {
  return { env, stdout: new MemoryWritable(), stderr: new MemoryWritable() } as unknown as CliIo;
}

function keyFile(text: string, mode: number): string {
  const file = join(tempDir('collect-key-'), 'key');
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

describe('loadApiKey', () => {
  it('reads the one line of a key file only its owner can read', () => {
    expect(loadApiKey(io(), keyFile('sk_test_0123456789\r\n', 0o600))).toBe('sk_test_0123456789');
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a key file others can read, the way ssh does, and says chmod 600',
    () => {
      const file = keyFile('sk_test_0123456789\n', 0o644);
      expect(() => loadApiKey(io(), file)).toThrow(
        expect.objectContaining({
          exitCode: 2,
          message: expect.stringContaining('(0644) let others'),
          hint: `chmod 600 ${file}`,
        }),
      );
    },
  );

  it('refuses a key file larger than 4 KiB, without reading it whole', () => {
    const file = keyFile(`sk_test_${'a'.repeat(1024 * 1024)}\n`, 0o600);
    expect(() => loadApiKey(io(), file)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: `--api-key-file ${file}: is 1,048,585 bytes; a key file holds one key (at most 4 KiB); refused`,
      }),
    );
  });

  it('refuses a folder, naming it', () => {
    const dir = tempDir('collect-key-');
    expect(() => loadApiKey(io(), dir)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: `--api-key-file ${dir}: is a folder, not a regular file; refused`,
      }),
    );
  });

  it('refuses a key file of several lines rather than use the first', () => {
    expect(() => loadApiKey(io(), keyFile('sk_test_0123456789\nsk_other_0123456789\n', 0o600))).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('has 2 lines') }),
    );
  });

  it.each([
    ['k', 'too short to be a key'],
    ['sk_test\u0007_0123456789', 'control character (at position 8)'],
    ['sk_test_0123\n456789', 'several lines'],
    ['sk_test 0123456789', 'contains a space'],
    ['sk_test_é0123456789', 'outside printable ASCII'],
  ])('refuses %j as a key, without showing it', (key, reason) => {
    expect(keyProblem(key)).toContain(reason);
    let message = '';
    try {
      loadApiKey(io({ COLLECT_API_KEY: key }), undefined);
    } catch (cause) {
      message = (cause as Error).message;
    }
    expect(message).toContain(`COLLECT_API_KEY ${keyProblem(key)!}`);
    if (key.length > 1) expect(message).not.toContain(key);
  });

  it('accepts a key of printable ASCII', () => {
    expect(keyProblem(KEY)).toBeUndefined();
  });
});

describe('redactor', () => {
  const redact = redactor(KEY);

  it('removes the key as is, JSON-escaped (twice), and JSON with escaped slashes', () => {
    const json = JSON.stringify(KEY).slice(1, -1);
    for (const form of [KEY, json, JSON.stringify(json).slice(1, -1), json.replace(/\//g, '\\/')]) {
      expect(redact(`echo: ${form}.`)).toBe('echo: [REDACTED].');
    }
  });

  it('removes it URL-encoded, in either hex case, and form-encoded', () => {
    const url = encodeURIComponent(KEY);
    expect(redact(`?k=${url}&x=1`)).toBe('?k=[REDACTED]&x=1');
    const lower = url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
    expect(lower).not.toBe(url);
    expect(redact(`?k=${lower}`)).toBe('?k=[REDACTED]');
  });

  it('removes it base64- and base64url-encoded at any offset inside a longer text', () => {
    for (const prefix of ['', 'B', 'Be', 'Bearer ']) {
      const encoded = Buffer.from(`${prefix}${KEY}`).toString('base64');
      const leaked = Buffer.from(KEY).toString('base64').slice(2, -4);
      for (const text of [encoded, encoded.replace(/\+/g, '-').replace(/\//g, '_')]) {
        expect(redact(text)).toContain('[REDACTED]');
        expect(
          Buffer.from(redact(text).replace('[REDACTED]', ''), 'base64').toString('latin1'),
        ).not.toContain(KEY.slice(2, -2));
      }
      expect(redact(encoded)).not.toContain(leaked);
    }
  });

  it('leaves texts without the key alone', () => {
    expect(redact('skipped 3 records')).toBe('skipped 3 records');
  });
});

describe('streamRedactor', () => {
  it('never lets the key through, wherever the stream is cut, and holds back nothing else', () => {
    const key = 'prod-key-0123456789abcdef';
    const text = `key ${key}; as base64 ${Buffer.from(`Bearer ${key}`).toString('base64')}; done`;
    const whole = redactor(key)(text);
    expect(whole).toBe('key [REDACTED]; as base64 QmVhcmVyIH[REDACTED]Y=; done');
    for (let cut = 0; cut <= text.length; cut++) {
      const stream = streamRedactor(key);
      const out = stream.write(text.slice(0, cut)) + stream.write(text.slice(cut)) + stream.end();
      expect(out).toBe(whole);
    }
    const stream = streamRedactor(key);
    expect(stream.write('Password: ')).toBe('Password: ');
    expect(stream.write('a prod-')).toBe('a ');
    expect(stream.write('uction\n')).toBe('prod-uction\n');
  });
});
