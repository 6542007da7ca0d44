import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { error, warning, type Issue } from '../core/issue.js';
import { tooDeep } from '../decode/limitIssues.js';
import type { Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';

/** One request of the application under test, as the sandbox received it. */
export interface ReceivedRequest {
  method: string;
  /**
   * The request target as sent: not decoded or normalised, its query kept, so only the five paths exactly are
   * endpoints.
   */
  path: string;
  /** The Authorization header (never kept in a report: only whether it is a Bearer key). */
  authorization: string | undefined;
  contentType: string | undefined;
  /** The body as text; undefined when it was too large to read. */
  body: string | undefined;
  at: Date;
}

/** The protocol rules of collection-service.md §4 and §5, with their codes. */
export const protocolRules = [
  {
    code: 'unknown-endpoint',
    severity: 'error',
    spec: '§4',
    catches: 'a method and path that is not one of the five endpoints',
  },
  {
    code: 'missing-authorization',
    severity: 'error',
    spec: '§5',
    catches: 'a request without the header Authorization: Bearer <API_KEY>',
  },
  {
    code: 'content-type-not-json',
    severity: 'error',
    spec: '§4',
    catches:
      'POST /v2/order without Content-Type: application/json (a warning on the other endpoints, ' +
      'whose bodies are JSON too)',
  },
  {
    code: 'body-not-json',
    severity: 'error',
    spec: '§2, §4',
    catches: 'a body that is not JSON (or is empty, or too large to read)',
  },
  {
    code: 'too-deep',
    severity: 'error',
    spec: '§2',
    catches: `a JSON body nested more than ${MAX_DEPTH} levels deep (records nest a few)`,
  },
] as const;

/** Parsed body of a request, or why it has none. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false; issue: Issue };

const BEARER = /^Bearer \S+$/;

/** Whether an Authorization header is of the form `Bearer <API_KEY>` (§5). */
export const isBearer = (authorization: string | undefined): authorization is string =>
  authorization !== undefined && BEARER.test(authorization);

function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

function endpointList(registry: Registry): string {
  return registry.all.map((resource) => `${resource.method} ${resource.path}`).join(', ');
}

/** The issue of a request whose method and path is no endpoint, with the likeliest one it meant. */
export function unknownEndpoint(request: ReceivedRequest, registry: Registry): Issue {
  const samePath = registry.all
    .filter((resource) => resource.path === request.path)
    .map((resource) => `${resource.method} ${resource.path}`);
  return error(
    'unknown-endpoint',
    '',
    `${request.method} ${request.path} is not an endpoint of the service`,
    {
      hint:
        samePath.length > 0
          ? `this path takes ${samePath.join(' or ')}`
          : `use one of: ${endpointList(registry)}`,
    },
  );
}

/** The header rules of a request for an endpoint: Bearer authorization, JSON content type. */
export function headerIssues(request: ReceivedRequest, resource: Resource): Issue[] {
  const issues: Issue[] = [];
  if (!isBearer(request.authorization)) {
    issues.push(
      error(
        'missing-authorization',
        'headers.authorization',
        request.authorization === undefined
          ? 'the request carries no Authorization header'
          : 'the Authorization header is not of the form "Bearer <API_KEY>"',
        {
          hint: 'send the header Authorization: Bearer <API_KEY> on every request (§5)',
        },
      ),
    );
  }
  if (!isJsonMediaType(request.contentType)) {
    // §4 names it for POST /v2/order; every other body is JSON as well (§2), so there it is a warning.
    const make = resource.role === 'creation' ? error : warning;
    issues.push(
      make(
        'content-type-not-json',
        'headers.content-type',
        `${resource.method} ${resource.path} ` +
          (request.contentType === undefined
            ? 'sent no Content-Type'
            : 'sent a Content-Type other than application/json'),
        {
          hint: 'send the header Content-Type: application/json',
          ...(request.contentType === undefined ? {} : { value: request.contentType }),
        },
      ),
    );
  }
  return issues;
}

/**
 * The body as JSON, or the issue that says why it is not (nested past any record: judging it would recurse
 * that deep).
 */
export function parseJsonBody(body: string | undefined): ParsedBody {
  if (body === undefined)
    return {
      ok: false,
      issue: error('body-not-json', '', 'the body is too large to read (over 1 MiB)', {
        hint: 'send one record per request',
      }),
    };
  if (body.trim() === '')
    return {
      ok: false,
      issue: error('body-not-json', '', 'the body is empty', { hint: 'send the record as a JSON object' }),
    };
  try {
    const value = JSON.parse(body) as unknown;
    return nestsDeeperThan(value, MAX_DEPTH) ? { ok: false, issue: tooDeep() } : { ok: true, value };
  } catch (cause) {
    return {
      ok: false,
      issue: error('body-not-json', '', `the body is not JSON (${(cause as Error).message})`, {
        hint: 'serialize the record with a JSON encoder',
      }),
    };
  }
}
