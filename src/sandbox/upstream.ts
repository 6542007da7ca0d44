import { Agent, request as httpRequest } from 'undici';
import type { Registry } from '../resources/registry.js';
import { endpointPath } from '../send/serviceUrl.js';
import { MAX_ANSWER_BYTES, parseBody } from '../send/responseBody.js';
import type { Redact } from '../send/outputFiles.js';
import { answer, type Service } from './localService.js';
import { keyRefusal, route } from './requestGate.js';

export interface UpstreamOptions {
  /** The real (staging) service's base URL, checked like --base-url. */
  base: URL;
  /** Sent as `Authorization: Bearer <key>` in place of the application's own header; never logged. */
  key: string;
  /**
   * Removes every form of the key from the service's answers (the cli's `redactor(key)`), before anything
   * else sees them.
   */
  redact: Redact;
  timeoutMs: number;
}

/**
 * The answer's text, or undefined past MAX_ANSWER_BYTES (the rest is never downloaded: a runaway answer is no
 * one's to hold).
 */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy: () => unknown },
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Answer headers passed back to the application (the rest are the connection's own). */
const PASSED_BACK = ['content-type', 'retry-after'];

/**
 * Forwards each request for one of the five endpoints, from a caller that presents a Bearer key
 * (the sandbox's --key, when given), to the real service with the key of COLLECT_API_KEY and
 * returns its answer with that key redacted, so the application sees what production would say.
 * Anything else is refused here and never reaches the service. An unreachable service is a 502.
 */
export function upstreamService(
  options: UpstreamOptions,
  registry: Registry,
  acceptKey?: string,
): { service: Service; close: () => Promise<void> } {
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs },
  });
  const { redact } = options;
  const service: Service = async (request) => {
    const routed = route(registry, request.method, request.path);
    if ('refused' in routed) return { kind: 'answer', answer: routed.refused, fault: 'none' };
    const unauthorized = keyRefusal(request.authorization, acceptKey);
    if (unauthorized) return { kind: 'answer', answer: unauthorized, fault: 'none' };
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
    // The application's Content-Type goes as it was sent: the service must see what production would.
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    try {
      // The registry's own method and path: nothing the caller wrote reaches the URL.
      const response = await httpRequest(
        new URL(endpointPath(options.base, routed.resource.path), options.base.origin),
        {
          method: routed.resource.method,
          headers,
          dispatcher: agent,
          ...(request.body === undefined ? {} : { body: request.body }),
        },
      );
      const text = await readCapped(response.body);
      if (text === undefined) {
        return {
          kind: 'answer',
          answer: answer(502, {
            error_message: `sandbox: the upstream service's answer was over ${MAX_ANSWER_BYTES} bytes; not passed on`,
          }),
          fault: 'none',
        };
      }
      const passed: Record<string, string> = {};
      for (const name of PASSED_BACK) {
        const value = response.headers[name];
        if (typeof value === 'string') passed[name] = redact(value);
      }
      const safe = redact(text);
      return {
        kind: 'answer',
        answer: { ...answer(response.statusCode, parseBody(safe), passed), raw: safe },
        fault: 'none',
      };
    } catch (cause) {
      const reason = redact(String((cause as { code?: string }).code ?? (cause as Error).message));
      return {
        kind: 'answer',
        answer: answer(502, { error_message: `sandbox: the upstream service did not answer (${reason})` }),
        fault: 'none',
      };
    }
  };
  return { service, close: () => agent.close() };
}
