import type { Response } from 'express';

export interface FieldProblem {
  field: string;
  message: string;
}

/** RFC 9457 problem details, with Gatehouse's stable `code`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldProblem[];
  errorId?: string;
  /** An event filter that names no known event: the events there are. */
  knownEvents?: readonly string[];
  /** A credential refused by the tenant's credential policy: the rule it breaks. */
  rule?: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problem(status: number, code: string, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: `urn:gatehouse:problem:${code}`, title: TITLES[status] ?? 'Error', status, detail, code, ...extra };
}

export function sendProblem(res: Response, body: Problem, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

/** Thrown by the global ValidationPipe: every field that failed. */
export class ValidationFailedError extends Error {
  readonly code = 'validation_failed';
  constructor(readonly errors: FieldProblem[]) {
    super(`Invalid request: ${errors.map((e) => e.field).join(', ')}`);
    this.name = 'ValidationFailedError';
  }
}
