import fc from 'fast-check';

/** The parts of an OpenAPI 3.0 document the fuzzer reads. */
export interface Schema {
  $ref?: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  format?: string;
  enum?: unknown[];
  pattern?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Parameter[];
  body?: Schema;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Operation['responses'] }>>;
  components: { schemas: Record<string, Schema> };
}

/** Every operation of the document, with its JSON request body schema. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method,
      path,
      operationId: operation.operationId,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content['application/json']?.schema,
      responses: operation.responses,
    })),
  );
}

const KNOWN_KEYWORDS = new Set([
  '$ref', 'type', 'format', 'enum', 'pattern', 'nullable', 'minimum', 'maximum', 'maxLength', 'minItems', 'maxItems', 'items',
  'properties', 'required', 'additionalProperties', 'description', 'example', 'default', 'allOf',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Validates a value against a schema of the document, strictly: an object may hold only the
 * properties its schema declares (unless `additionalProperties` allows more), so a field the
 * document does not describe — a leaked column, say — is an error. Unknown keywords fail loudly.
 * Returns the problems found, each with its JSON path.
 */
export function validate(document: OpenApiDocument, schema: Schema, value: unknown, at = '$'): string[] {
  for (const keyword of Object.keys(schema)) if (!KNOWN_KEYWORDS.has(keyword)) return [`${at}: the validator does not know "${keyword}"`];
  if (schema.$ref) return validate(document, resolve(document, schema), value, at);
  if (value === null) return schema.nullable ? [] : [`${at}: null where ${schema.type ?? 'a value'} is declared`];
  if (schema.allOf) return schema.allOf.flatMap((part) => validate(document, part, value, at));
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return [`${at}: not a string`];
      if (schema.format === 'uuid' && !UUID.test(value)) return [`${at}: not a uuid`];
      if (schema.format === 'date-time' && !DATE_TIME.test(value)) return [`${at}: not a date-time`];
      return [];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: not a number`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: not an integer`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: not a boolean`];
    case 'array':
      if (!Array.isArray(value)) return [`${at}: not an array`];
      return value.flatMap((item, i) => (schema.items ? validate(document, schema.items, item, `${at}[${i}]`) : []));
    case 'object':
    case undefined:
      return validateObject(document, schema, value, at);
  }
}

function validateObject(document: OpenApiDocument, schema: Schema, value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not an object`];
  const record = value as Record<string, unknown>;
  const properties = schema.properties ?? {};
  const problems = (schema.required ?? []).filter((key) => !(key in record)).map((key) => `${at}.${key}: required, missing`);
  for (const [key, item] of Object.entries(record)) {
    if (properties[key]) problems.push(...validate(document, properties[key], item, `${at}.${key}`));
    else if (typeof schema.additionalProperties === 'object') problems.push(...validate(document, schema.additionalProperties, item, `${at}.${key}`));
    else if (schema.additionalProperties !== true) problems.push(`${at}.${key}: not in the document`);
  }
  return problems;
}

export function resolve(document: OpenApiDocument, schema: Schema): Schema {
  // `allOf` of one schema is how a described or nullable reference is written: it is that schema.
  if (schema.allOf?.length === 1 && !schema.$ref) return resolve(document, schema.allOf[0]!);
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const found = document.components.schemas[name];
  if (!found) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(document, found);
}

/** Values a field should take besides random ones: ids and names of both tenants, by field name. */
export type Pools = (field: string) => fc.Arbitrary<unknown> | undefined;

/** Nasty strings: long, control characters, markup, SQL, path tricks, non-BMP. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '..', '../etc', '%00', '\u0000', 'a\r\nb', '<script>x</script>', "' OR 1=1 --", '😀'.repeat(20), '\u202e'),
  fc.integer({ min: 200, max: 3000 }).map((n) => 'x'.repeat(n)),
);

/** A value meant to satisfy `schema` (it often will), sometimes at or just past its limits. */
export function valueFor(document: OpenApiDocument, schema: Schema, field: string, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(document, schema);
  const plain = plainValueFor(document, resolved, field, pools, depth);
  const pooled = resolved.type === 'array' ? undefined : pools(field); // an array's pool is for its items
  return pooled ? fc.oneof({ arbitrary: pooled, weight: 3 }, { arbitrary: plain, weight: 1 }) : plain;
}

function plainValueFor(document: OpenApiDocument, schema: Schema, field: string, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
    case 'number':
      return numberFor(schema);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = valueFor(document, schema.items ?? {}, field, pools, depth + 1);
      return fc.array(item, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    default:
      return depth > 3 ? fc.constant({}) : bodyFor(document, schema, pools, depth + 1);
  }
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  const limit = schema.maxLength ?? 60;
  const options: Array<fc.Arbitrary<string>> = [fc.string({ minLength: 1, maxLength: Math.min(limit, 30) })];
  if (schema.pattern) options.push(fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= limit));
  options.push(fc.constantFrom('x'.repeat(limit), 'x'.repeat(limit + 1)));
  return fc.oneof(...options);
}

function numberFor(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  const integral = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(integral, integral, fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 1.5, 2 ** 53, -(2 ** 31)));
}

/** An object of `schema`: every required property, each optional one half the time. */
export function bodyFor(document: OpenApiDocument, schema: Schema, pools: Pools, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const resolved = resolve(document, schema);
  const properties = resolved.properties ?? {};
  const record = Object.fromEntries(Object.entries(properties).map(([key, item]) => [key, valueFor(document, item, key, pools, depth)]));
  return fc.record(record, { requiredKeys: resolved.required ?? [] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A body that is wrong in one way: a wrong type, a missing or unknown field, a prototype key, deep, huge or not an object. */
export function brokenBodyFor(document: OpenApiDocument, schema: Schema, pools: Pools): fc.Arbitrary<unknown> {
  const valid = bodyFor(document, schema, pools);
  const keys = Object.keys(resolve(document, schema).properties ?? {});
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('displayName');
  return fc.oneof(
    fc.tuple(valid, key, fc.jsonValue({ maxDepth: 3 })).map(([body, k, value]) => ({ ...body, [k]: value })),
    fc.tuple(valid, key).map(([body, k]) => Object.fromEntries(Object.entries(body).filter(([name]) => name !== k))),
    fc.tuple(valid, fc.constantFrom('state', 'secretHash', 'roles', 'tenantId', 'id', 'zz')).map(([body, k]) => ({ ...body, [k]: 'x' })),
    fc.tuple(valid, fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([body, k]) => JSON.parse(`{${JSON.stringify(k)}:{"isAdmin":true},"x":${JSON.stringify(body)}}`)),
    fc.tuple(valid, key, fc.integer({ min: 1, max: 200 })).map(([body, k, depth]) => ({ ...body, [k]: JSON.parse('['.repeat(depth) + ']'.repeat(depth)) })),
    fc.tuple(valid, key, nastyString).map(([body, k, text]) => ({ ...body, [k]: text })),
    fc.tuple(valid, key).map(([body, k]) => ({ ...body, [k]: 'y'.repeat(70 * 1024) })),
    fc.jsonValue({ maxDepth: 2 }),
  );
}
