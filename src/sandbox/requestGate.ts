import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { answer, type Answer } from './answer.js';
import { isBearer } from './protocolRules.js';

/**
 * The Host values the sandbox answers to: its own address and port as it listens (localhost too
 * for a loopback address), plus names given with --allow-host. Anything else is a request meant
 * for another server, or a web page that rebound a name of its own to 127.0.0.1.
 */
export function ownHosts(address: AddressInfo, extra: readonly string[] = []): Set<string> {
  const port = address.port;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const names = new Set<string>(extra.map((name) => name.toLowerCase()));
  if (address.family === 'IPv6' && !wildcard) names.add(`[${address.address}]`);
  else if (!wildcard) names.add(address.address);
  if (wildcard || address.address.startsWith('127.') || address.address === '::1') names.add('localhost');
  if (wildcard) names.add('127.0.0.1').add('[::1]');
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

/**
 * Refuses a caller that is no program of this machine's: any browser Origin (the sandbox sends
 * no CORS headers, and a page's plain-text POST needs none), or a Host not the sandbox's own.
 */
export function callerRefusal(headers: IncomingHttpHeaders, hosts: ReadonlySet<string>): Answer | undefined {
  if (headers.origin !== undefined) {
    return answer(403, {
      error_message:
        'sandbox: requests from a web page (with an Origin header) are refused; the sandbox ' +
        'answers programs, not browsers',
    });
  }
  if (!hosts.has((headers.host ?? '').toLowerCase())) {
    return answer(403, {
      error_message:
        `sandbox: the Host header must name this sandbox (${[...hosts].join(', ')}); use ` +
        `--allow-host for another name`,
    });
  }
  return undefined;
}

/**
 * The endpoint a method and request target name, exactly (the target as sent: no decoding, no query), or the
 * 404/405 that refuses it.
 */
export function route(
  registry: Registry,
  method: string,
  target: string,
): { resource: Resource } | { refused: Answer } {
  const resource = registry.byRoute(method, target);
  if (resource) return { resource };
  const methods = registry.all
    .filter((candidate) => candidate.path === target)
    .map((candidate) => candidate.method);
  if (methods.length > 0)
    return {
      refused: answer(
        405,
        { error_message: `no endpoint ${method} ${target}: this path takes ${methods.join(' or ')}` },
        { allow: methods.join(', ') },
      ),
    };
  return { refused: answer(404, { error_message: `no endpoint ${method} ${target}` }) };
}

/**
 * 401 unless the request carries `Authorization: Bearer <key>` (that key, when the sandbox was given one with
 * --key).
 */
export function keyRefusal(authorization: string | undefined, key: string | undefined): Answer | undefined {
  if (!isBearer(authorization)) return answer(401, { error_message: 'missing API key' });
  if (key !== undefined && authorization !== `Bearer ${key}`)
    return answer(401, { error_message: 'invalid API key' });
  return undefined;
}
