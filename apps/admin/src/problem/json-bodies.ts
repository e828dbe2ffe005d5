import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type Response } from 'express';
import { MAX_JSON_DEPTH, jsonShapeFault } from '@gatehouse/http';
import { type Problem, problem, sendProblem } from './problem.js';

export const BODY_LIMIT = '64kb';

const NUL = /%00/;
const JSON_TYPES = ['application/json', 'application/*+json'];

/** Whether a request carries a body at all (a length above zero, or a chunked one). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(req: Request): boolean {
  return typeof req.is(JSON_TYPES) === 'string';
}

/** JSON is UTF-8 (RFC 8259 §8.1): another charset, or bytes that are not UTF-8, are refused. */
function refuseNonUtf8(_req: Request, _res: Response, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') throw Object.assign(new Error('charset'), { status: 415, type: 'charset.unsupported' });
  if (!isUtf8(body)) throw Object.assign(new Error('utf-8'), { status: 400, type: 'gatehouse.invalid_utf8' });
}

const UNSUPPORTED = problem(415, 'unsupported_media_type', 'Send the body as application/json in UTF-8.');

function readProblem(error: unknown): Problem {
  switch ((error as { type?: string }).type) {
    case 'entity.too.large':
      return problem(413, 'payload_too_large', `The body exceeds ${BODY_LIMIT}.`);
    case 'entity.parse.failed':
      return problem(400, 'malformed_json', 'The body is not valid JSON.');
    case 'gatehouse.invalid_utf8':
      return problem(400, 'invalid_utf8', 'The body is not valid UTF-8.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return UNSUPPORTED;
    default:
      return problem(400, 'bad_request', 'The body could not be read.');
  }
}

function shapeProblem(body: unknown): Problem | null {
  const fault = jsonShapeFault(body, MAX_JSON_DEPTH);
  if (!fault) return null;
  if (fault.kind === 'too_deep') return problem(400, 'too_deep', `The body is nested deeper than ${fault.maxDepth} levels.`);
  return problem(400, 'forbidden_key', `The body may not contain the key "${fault.key}".`, {
    errors: [{ field: fault.path, message: `"${fault.key}" is not allowed as a key` }],
  });
}

/**
 * Everything a body goes through before validation sees it, each refusal a problem+json answer:
 * a NUL in the path or query (400: no stored object can be named by one, since Postgres text
 * cannot hold it), a body that is not JSON (415), over {@link BODY_LIMIT} (413), not UTF-8 or not
 * JSON (400), nested deeper than {@link MAX_JSON_DEPTH} or holding a prototype key (400).
 */
export function jsonBodies(): (req: Request, res: Response, next: NextFunction) => void {
  const parse = express.json({ limit: BODY_LIMIT, strict: true, type: JSON_TYPES, verify: refuseNonUtf8 });
  const invalidCharacters = problem(400, 'invalid_characters', 'The request contains a NUL character.');
  return (req, res, next) => {
    if (NUL.test(req.originalUrl)) return sendProblem(res, invalidCharacters);
    if (hasBody(req) && !isJson(req)) return sendProblem(res, UNSUPPORTED);
    parse(req, res, (error?: unknown) => {
      if (error) return sendProblem(res, readProblem(error));
      const refused = shapeProblem(req.body);
      return refused ? sendProblem(res, refused) : next();
    });
  };
}
