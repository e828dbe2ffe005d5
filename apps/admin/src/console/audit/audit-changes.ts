/**
 * What an audit event says changed, read from the shapes its details take: `{before, after}`
 * (two values or two lists), `{before, changes}` (the fields asked for), `{before, state}` (a
 * state change) and `{added, removed}` (a set). Secrets never reach the details (they are
 * redacted when the event is written), so nothing here can show one.
 */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface AuditChanges {
  fields: FieldChange[];
  added: string[];
  removed: string[];
}

type Details = Record<string, unknown>;

const isObject = (value: unknown): value is Details => value !== null && typeof value === 'object' && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const strings = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : null;

/** The fields of `after` (or of `changes`) whose value differs from `before`'s. */
function fieldChanges(before: Details, after: Details): FieldChange[] {
  return Object.keys(after)
    .filter((field) => !same(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

export function changesOf(details: Details): AuditChanges {
  const { before } = details;
  const after = details.after ?? details.changes;
  const beforeList = strings(before);
  const afterList = strings(after);
  if (beforeList && afterList) {
    return {
      fields: [],
      added: afterList.filter((item) => !beforeList.includes(item)),
      removed: beforeList.filter((item) => !afterList.includes(item)),
    };
  }
  const added = strings(details.added) ?? [];
  const removed = strings(details.removed) ?? [];
  if (isObject(before) && isObject(after)) return { fields: fieldChanges(before, after), added, removed };
  if (before !== undefined && !isObject(before) && 'state' in details && !same(before, details.state)) {
    return { fields: [{ field: 'state', before, after: details.state }], added, removed };
  }
  return { fields: [], added, removed };
}

/** Whether the event says what changed at all. */
export function saysWhatChanged(changes: AuditChanges): boolean {
  return changes.fields.length > 0 || changes.added.length > 0 || changes.removed.length > 0;
}
