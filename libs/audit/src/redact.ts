/** Keys whose values never reach the audit log (compared case-insensitively, without `_` or `-`). */
const SENSITIVE = /secret|password|token|hash|authorization|credential|privatekey/i;

/**
 * Settings that only name a secret-like word (`accessTokenVersion`, `tokenEndpoint`, the credential
 * policy's `maxSecretLifetimeDays`, `allowedCredentialKinds`, a client's `tokensPerHour`): kept visible.
 */
const SETTING = /(lifetimeseconds|lifetimedays|version|endpoint|credentialkinds|credentialdays|stalecredentials|tokensperhour)$/i;

export const REDACTED = '[redacted]';

function isSensitiveKey(key: string): boolean {
  const bare = key.replace(/[_-]/g, '');
  return SENSITIVE.test(bare) && !SETTING.test(bare);
}

/** A deep copy of `value` with the value of every sensitive key replaced by `[redacted]`. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return REDACTED;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      copy[key] = isSensitiveKey(key) ? REDACTED : redact(inner, depth + 1);
    }
    return copy;
  }
  return value;
}

export function redactDetails(details: Record<string, unknown> | undefined): Record<string, unknown> {
  return (redact(details ?? {}) as Record<string, unknown>) ?? {};
}
