/**
 * Answers and failures that no record can fix: the run is pointed at the wrong place, or the
 * service cannot take anything now. They stop the whole run (a circuit breaker), not one record.
 */
export interface SetupFailure {
  /** What happened, in one line, with no library's raw text. */
  summary: string;
  /** How to fix it, in one sentence. */
  hint: string;
}

/** Consecutive attempts of one record that could not reach the service before the run stops. */
export const UNREACHABLE_ATTEMPTS = 3;
/** Records in a row that failed after all their retries, none accepted between, before the run stops. */
export const FAILED_RECORDS_IN_A_ROW = 3;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
const PLAIN_HTTP = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_HTTP_REQUEST',
  'EPROTO',
]);
const CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
]);

/** The address a user typed, for messages: origin and path prefix. */
const shown = (base: URL) => `${base.origin}${base.pathname.replace(/\/+$/, '')}`;

export function isUnreachable(code: string): boolean {
  return UNREACHABLE.has(code);
}

/**
 * A connection failure that retrying cannot fix (TLS spoken to a plain server, a certificate that fails):
 * undefined for others.
 */
export function connectionSetupFailure(code: string, base: URL): SetupFailure | undefined {
  if (PLAIN_HTTP.has(code) || code.startsWith('ERR_SSL_')) {
    return {
      summary:
        `${shown(base)} does not answer in TLS: the server there speaks plain http, or another ` +
        `protocol, on that port`,
      hint:
        base.hostname === 'localhost' || base.hostname.startsWith('127.') || base.hostname === '[::1]'
          ? `for a sandbox on this machine use http://${base.host}; otherwise check the port of --base-url`
          : 'check the host and port of --base-url: the service answers https on its own address',
    };
  }
  if (CERTIFICATE.has(code)) {
    return {
      summary: `the TLS certificate of ${base.host} cannot be verified (${code}): nothing was sent to it`,
      hint: 'check --base-url; for a private certificate authority set NODE_EXTRA_CA_CERTS=ca.pem',
    };
  }
  return undefined;
}

export function unreachable(code: string, base: URL, attempts: number): SetupFailure {
  const dns = code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME';
  return {
    summary: dns
      ? `the host ${base.hostname} cannot be found (${code}, ${attempts} attempts)`
      : `the service at ${base.origin} cannot be reached (${code}, ${attempts} attempts)`,
    hint: dns
      ? 'check the host name in --base-url (or COLLECT_BASE_URL) and the network'
      : 'check that the service is running and --base-url names its host and port',
  };
}

/** `path` is the endpoint's own (/v2/order), `sent` the path as requested under the base URL's prefix. */
export function redirected(
  status: number,
  location: string | undefined,
  method: string,
  path: string,
  sent = path,
): SetupFailure {
  // A redirect of the whole service moves the base URL: what precedes the endpoint path in the new address.
  const newBase = location?.endsWith(path) ? location.slice(0, -path.length) : undefined;
  return {
    summary:
      `the service redirected ${method} ${sent} (HTTP ${status}) to ${location ?? '(no location)'}; ` +
      `collect does not follow redirects, so the key never travels elsewhere`,
    hint: newBase
      ? `if ${newBase} is the service, give it as --base-url`
      : 'check --base-url: it must be the address the service answers on itself',
  };
}

export function unknownPath(status: number, method: string, sent: string, base: URL): SetupFailure {
  const v2 = /\/v2\/?$/.test(base.pathname);
  return {
    summary:
      `the service answered HTTP ${status} to ${method} ${sent} before accepting anything there: the ` +
      `address is wrong, not the record`,
    hint: v2
      ? `drop /v2 from --base-url: collect adds the /v2/... paths itself (--base-url ${base.origin}` +
        `${base.pathname.replace(/\/v2\/?$/, '')})`
      : 'check --base-url: it is the service root, collect adds the /v2/... paths itself',
  };
}

export function waitTooLong(retryAfterMs: number, maxMs: number): SetupFailure {
  return {
    summary:
      `the service asks to wait ${Math.ceil(retryAfterMs / 1000)} s before another request ` +
      `(Retry-After), more than the ${Math.round(maxMs / 1000)} s collect waits: stopped instead of ` +
      `waiting`,
    hint: 'run the same command again later: what was not sent is sent then',
  };
}

export function keepsFailing(lastReason: string): SetupFailure {
  return {
    summary:
      `${FAILED_RECORDS_IN_A_ROW} records in a row could not be delivered after all their retries ` +
      `(last: ${lastReason})`,
    hint: 'check the service and the network, then run the same command again: what was not sent is sent then',
  };
}

/** The one message of a run the breaker stopped, for standard error. */
export function describeHalt(failure: SetupFailure): string {
  return (
    `collect: stopped sending: ${failure.summary}\n  fix: ${failure.hint}\n  what was not sent is ` +
    `kept: run the same command again once this is fixed\n`
  );
}
