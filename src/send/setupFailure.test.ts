import { describe, expect, it } from 'vitest';
import {
  connectionSetupFailure,
  describeHalt,
  isUnreachable,
  redirected,
  unknownPath,
  unreachable,
} from './setupFailure.js';

const local = new URL('https://127.0.0.1:8443');
const remote = new URL('https://collect.example.com/v2');

describe('setup failures', () => {
  it('names TLS spoken to a plain server without the OpenSSL text, and the fix for a local sandbox', () => {
    const failure = connectionSetupFailure('ERR_SSL_WRONG_VERSION_NUMBER', local)!;
    expect(failure.summary).toBe(
      'https://127.0.0.1:8443 does not answer in TLS: the server there speaks plain http, or ' +
        'another protocol, on that port',
    );
    expect(failure.hint).toContain('use http://127.0.0.1:8443');
  });

  it('names a certificate that fails verification', () => {
    expect(connectionSetupFailure('DEPTH_ZERO_SELF_SIGNED_CERT', remote)?.summary).toContain(
      'certificate of collect.example.com cannot be verified',
    );
  });

  it('leaves passing failures (a reset, a refused connection) to the retries', () => {
    expect(connectionSetupFailure('ECONNRESET', remote)).toBeUndefined();
    expect(connectionSetupFailure('ECONNREFUSED', remote)).toBeUndefined();
    expect(isUnreachable('ECONNREFUSED')).toBe(true);
    expect(isUnreachable('ECONNRESET')).toBe(false);
  });

  it('tells a host that cannot be found from a service that is down', () => {
    expect(unreachable('ENOTFOUND', remote, 3).summary).toBe(
      'the host collect.example.com cannot be found (ENOTFOUND, 3 attempts)',
    );
    expect(unreachable('ECONNREFUSED', local, 3).hint).toContain('service is running');
  });

  it('says to drop /v2 from a base URL that ends in it', () => {
    expect(unknownPath(404, 'POST', '/v2/order', remote).hint).toContain(
      '--base-url https://collect.example.com)',
    );
    expect(unknownPath(404, 'POST', '/v2/order', local).hint).toContain('check --base-url');
  });

  it('suggests the base URL a whole-service redirect points to', () => {
    expect(redirected(301, 'https://new.example.com/api/v2/order', 'POST', '/v2/order').hint).toBe(
      'if https://new.example.com/api is the service, give it as --base-url',
    );
    expect(redirected(302, 'https://login.example.com/', 'POST', '/v2/order').hint).toContain(
      'check --base-url',
    );
    expect(redirected(302, undefined, 'POST', '/v2/order').summary).toContain('(no location)');
  });

  it('is one message with its fix and the way on', () => {
    expect(describeHalt({ summary: 'S', hint: 'H' }).split('\n').filter(Boolean)).toEqual([
      'collect: stopped sending: S',
      '  fix: H',
      '  what was not sent is kept: run the same command again once this is fixed',
    ]);
  });
});
