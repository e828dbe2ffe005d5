import { type KeyObject, verify } from 'node:crypto';
import { joseToDer } from 'ecdsa-sig-formatter';

/**
 * Whether ES256 signatures are made and checked in DER and converted to or from JOSE's r ‖ s in
 * JavaScript (ecdsa-sig-formatter, ≈ 1 µs) rather than by OpenSSL (`dsaEncoding: 'ieee-p1363'`).
 * Node 24, the image's runtime, takes 48 µs to sign in the JOSE encoding and 23 µs in DER (verify:
 * 90 and 64 µs), here, where Node 22 with the same OpenSSL 3.5 signs either way in 24 µs and Node
 * 20 in 25 µs; on those the conversion would only cost. Measured in BENCHMARKS.md.
 */
export const CONVERT_DER = Number(process.versions.node.split('.')[0]) >= 24;

/** An ES256 JWS signature (64 bytes, r ‖ s) over `data` checked with `key`. */
export function verifyEs256(data: Buffer, key: KeyObject, signature: Buffer): boolean {
  return CONVERT_DER
    ? verify('sha256', data, key, joseToDer(signature, 'ES256'))
    : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
}
