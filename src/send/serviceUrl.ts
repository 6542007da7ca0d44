import { UsageError } from '../core/errors.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The service's base URL: https, or http only to a loopback address (a sandbox on this machine). */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url ${text} is not a URL`, 'give it as https://host[/prefix]');
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new UsageError(
      `refusing plain http:// to ${url.hostname}: the key would travel unencrypted`,
      'use https://, or http:// only to 127.0.0.1 or localhost',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--base-url must be https:// (got ${url.protocol})`);
  if (url.username || url.password)
    throw new UsageError(
      '--base-url must not carry credentials',
      'give the key with COLLECT_API_KEY or --api-key-file',
    );
  return url;
}

/** The full path of an endpoint under the base URL's own path prefix. */
export function endpointPath(base: URL, path: string): string {
  return `${base.pathname.replace(/\/+$/, '')}${path}`;
}
