import { Agent, request as httpRequest } from 'undici';
import { endpointPath } from '../send/serviceUrl.js';
import { parseBody } from '../send/responseBody.js';
import { answer, type Service } from './localService.js';

export interface UpstreamOptions {
  /** The real (staging) service's base URL, checked like --base-url. */
  base: URL;
  /** Sent as `Authorization: Bearer <key>` in place of the application's own header; never logged. */
  key: string;
  timeoutMs: number;
}

/** Answer headers passed back to the application (the rest are the connection's own). */
const PASSED_BACK = ['content-type', 'retry-after'];

/**
 * Forwards each request to the real service with the key of COLLECT_API_KEY and returns its
 * answer, so the application sees what production would say. An unreachable service is a 502.
 */
export function upstreamService(options: UpstreamOptions): { service: Service; close: () => Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 10_000, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connect: { timeout: options.timeoutMs } });
  const service: Service = async (request) => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
    // The application's Content-Type goes as it was sent: the service must see what production would.
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    try {
      const response = await httpRequest(new URL(endpointPath(options.base, request.path), options.base.origin), {
        method: request.method as 'POST', headers, dispatcher: agent, ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await response.body.text();
      const passed: Record<string, string> = {};
      for (const name of PASSED_BACK) {
        const value = response.headers[name];
        if (typeof value === 'string') passed[name] = value;
      }
      return { kind: 'answer', answer: { ...answer(response.statusCode, parseBody(text), passed), raw: text }, fault: 'none' };
    } catch (cause) {
      const reason = (cause as { code?: string }).code ?? (cause as Error).message;
      return { kind: 'answer', answer: answer(502, { error_message: `sandbox: the upstream service did not answer (${reason})` }), fault: 'none' };
    }
  };
  return { service, close: () => agent.close() };
}
