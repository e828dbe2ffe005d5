import fc from 'fast-check';
import { type OpenApiDocument, type Operation, bodyFor, brokenBodyFor, nastyString, validate, valueFor } from './openapi-fuzz.js';

/** Values for a field or path parameter of an operation at `path` (else the schema's own). */
export type PathPools = (field: string, path: string) => fc.Arbitrary<unknown> | undefined;

/** One generated request of an operation: its path (without `/admin/v1`), query, body and content type. */
export interface FuzzRequest {
  path: string;
  query: string;
  body: unknown;
  contentType: string;
}

/**
 * A path parameter as one segment that still names this operation: never empty (`/users/` is the
 * list), dots escaped (`/users/..` would be normalised away by the client).
 */
function pathSegment(value: unknown): string {
  const text = String(value) || '-';
  return encodeURIComponent(text).replace(/\./g, '%2E');
}

/** Requests of an operation: pooled or nasty path ids, query values and stray keys, good and broken bodies, now and then the wrong content type. */
export function requestFor(document: OpenApiDocument, operation: Operation, pools: PathPools): fc.Arbitrary<FuzzRequest> {
  const bodyPools = (field: string) => pools(field, operation.path);
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...pathParams.map((p) => fc.oneof({ arbitrary: pools(p.name, operation.path) ?? fc.uuid(), weight: 6 }, { arbitrary: nastyString, weight: 1 })))
    .map((values) => pathParams.reduce((text, p, i) => text.replace(`{${p.name}}`, pathSegment(values[i])), operation.path));
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const query = fc
    .tuple(
      fc.record(
        Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof({ arbitrary: valueFor(document, p.schema, p.name, bodyPools), weight: 6 }, nastyString)])),
        { requiredKeys: [] },
      ),
      fc.oneof({ arbitrary: fc.constant(null), weight: 9 }, fc.constantFrom('bogus', 'limit[]', '__proto__')),
    )
    .map(([values, extra]) => {
      const params = new URLSearchParams(Object.entries(values).map(([k, v]): [string, string] => [k, String(v)]));
      if (extra) params.append(extra, '1');
      const text = params.toString();
      return text ? `?${text}` : '';
    });
  const body = operation.body
    ? fc.oneof({ arbitrary: bodyFor(document, operation.body, bodyPools), weight: 3 }, { arbitrary: brokenBodyFor(document, operation.body, bodyPools), weight: 2 })
    : fc.constant(undefined);
  const contentType = fc.constantFrom(...Array(9).fill('application/json'), 'text/plain');
  return fc.record({ path, query, body, contentType }).map((r) => ({ ...r, path: r.path.replace(/^\/admin\/v1/, '') }));
}

/** What an answer broke of what the document declares: no 5xx, a declared status and media type, a body of the declared schema. */
export function undeclared(document: OpenApiDocument, operation: Operation, status: number, type: string, text: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}`);
  const declared = operation.responses[String(status)];
  if (!declared) return [...problems, `status ${status} is not declared (${Object.keys(operation.responses).join(', ')})`];
  const mediaType = type.split(';')[0]!.trim();
  const content = declared.content?.[mediaType];
  if (!declared.content && text) problems.push(`a body where none is declared: ${text.slice(0, 200)}`);
  if (declared.content && !content) problems.push(`media type ${mediaType || '(none)'} not declared for ${status}`);
  if (content) problems.push(...validate(document, content.schema, JSON.parse(text)).map((p) => `${status} body ${p}`));
  return problems;
}

/** Sends a generated request to the admin API at `base` with a bearer token. */
export async function send(base: string, token: string, operation: Operation, request: FuzzRequest) {
  const hasBody = request.body !== undefined;
  const response = await fetch(`${base}/admin/v1${request.path}${request.query}`, {
    method: operation.method.toUpperCase(),
    headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': request.contentType } : {}) },
    body: hasBody ? JSON.stringify(request.body) : undefined,
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}
