import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule, getSchemaPath } from '@nestjs/swagger';
import type { OperationObject, PathItemObject, ResponsesObject } from '@nestjs/swagger';
import { adminApiTags } from './auth/admin-controller.js';
import { FieldProblemResponse, ProblemResponse } from './dto/problem.dto.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const PROBLEMS: Record<number, string> = {
  400: 'Invalid request: a field, the query or the path (each failing field listed once)',
  401: 'Missing, invalid or expired bearer token',
  403: 'The token lacks the permission, or the object is beyond the caller',
  404: 'No such object in this tenant',
  409: 'Conflicts with the current state',
  413: 'The body exceeds 64 KiB',
  415: 'The body is not JSON in UTF-8',
  503: 'The database is unavailable; retry after the Retry-After seconds',
};

function problemResponse(status: number) {
  return {
    description: PROBLEMS[status] ?? 'Refused',
    content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemResponse) } } },
  };
}

/**
 * The answers every operation may give because of what runs before its handler (the body reader,
 * the bearer guard, the validation pipe, the database) — declared here, where they are uniform:
 * 400, 401, 403 and 503 everywhere, 404 with a path id, 413 and 415 where a body may be sent.
 * Operation-specific refusals (409, …) are declared on the handlers with {@link ApiProblems}.
 */
function declareCommonProblems(path: string, method: string, operation: OperationObject): void {
  const statuses = [400, 401, 403, 503];
  if (path.includes('{')) statuses.push(404);
  if (method !== 'get') statuses.push(413, 415);
  const responses: ResponsesObject = operation.responses ?? {};
  for (const status of statuses) responses[String(status)] = problemResponse(status);
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** The admin API's OpenAPI document, as served at /admin/openapi.json and linted in CI. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Gatehouse admin API')
    .setVersion('1')
    .setDescription(
      'Personal accounts, invitations, documentation sections, APIs and their scopes, API clients and their secrets, the mail outbox and the audit log of one tenant. Authenticate with a bearer token for `api://gatehouse-admin/.default` from the tenant’s own token endpoint; the token’s tenant is the tenant acted on. Errors are `application/problem+json` (RFC 9457) with a stable `code`.',
    )
    .setLicense('Proprietary: for the operating company and its partners', 'https://gatehouse.invalid/licence')
    .addServer('/', 'This admin app: the paths below are relative to where this document is served')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  for (const [name, description] of adminApiTags()) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ProblemResponse, FieldProblemResponse] });
  for (const [path, item] of Object.entries(document.paths) as Array<[string, PathItemObject]>) {
    // Every app's health paths (libs/http) are for the orchestrator, not part of the admin API.
    if (path.startsWith('/health/')) {
      delete document.paths[path];
      continue;
    }
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) declareCommonProblems(path, method, operation);
    }
  }
  return document;
}
