import { Secret, TOTP } from 'otpauth';

/** What an authenticator app does with the base32 secret shown at enrolment. */
export function authenticatorApp(base32: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(base32), algorithm: 'SHA1', digits: 6, period: 30 });
  return {
    /** The code shown now (or `steps` periods away). */
    code: (steps = 0) => totp.generate({ timestamp: Date.now() + steps * 30_000 }),
    /** Six digits that are none of the codes valid around now. */
    wrongCode: () => {
      const valid = new Set([-2, -1, 0, 1, 2].map((n) => totp.generate({ timestamp: Date.now() + n * 30_000 })));
      for (let n = 0; ; n++) {
        const candidate = String((Number(totp.generate()) + 1 + n * 7919) % 1_000_000).padStart(6, '0');
        if (!valid.has(candidate)) return candidate;
      }
    },
  };
}

/** The base32 secret from an `otpauth://` URI or an enrolment page's text. */
export function secretOf(text: string): string {
  const match = /secret=([A-Z2-7]+)/.exec(text) ?? /data-secret="([A-Z2-7]+)"/.exec(text);
  if (!match?.[1]) throw new Error('no TOTP secret in the text');
  return match[1];
}
