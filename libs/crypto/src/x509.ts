import { type KeyObject, createHash, createPublicKey, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * A minimal X.509 v3 certificate writer (DER, RFC 5280) for self-signed certificates: the signing
 * keys' `x5c` in the JWKS and the development TLS certificate. RSA (sha256WithRSAEncryption) and
 * EC P-256 (ecdsa-with-SHA256) keys.
 */
export interface SelfSignedOptions {
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  /** DNS names and IP addresses for subjectAltName (a TLS server certificate). */
  altNames?: string[];
  /** basicConstraints CA:TRUE (lets the certificate be its own trust anchor). */
  ca?: boolean;
}

const der = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => der(0xa0 + n, content);
const utf8 = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const octets = (content: Buffer) => der(0x04, content);
const bits = (content: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), content]));
const bool = (value: boolean) => der(0x01, Buffer.from([value ? 0xff : 0]));
const NULL = Buffer.from([0x05, 0x00]);

function integer(bytes: Buffer): Buffer {
  const trimmed = bytes[0] === 0 && bytes.length > 1 && bytes[1]! < 0x80 ? bytes.subarray(1) : bytes;
  return der(0x02, trimmed[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return der(0x06, Buffer.from(out));
}

/** UTCTime until 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

const name = (commonName: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(commonName))));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

function altName(entry: string): Buffer {
  if (isIP(entry) === 4) return der(0x87, Buffer.from(entry.split('.').map(Number)));
  if (isIP(entry) === 6) {
    const full = entry.includes('::') ? expandIpv6(entry) : entry.split(':');
    return der(0x87, Buffer.from(full.flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff])));
  }
  return der(0x82, Buffer.from(entry, 'ascii'));
}

function expandIpv6(address: string): string[] {
  const [head, tail] = address.split('::').map((part) => (part ? part.split(':') : []));
  return [...head!, ...Array<string>(8 - head!.length - tail!.length).fill('0'), ...tail!];
}

function extensions(options: SelfSignedOptions, spki: Buffer): Buffer {
  const keyId = createHash('sha1').update(spki).digest();
  const list = [
    extension('2.5.29.19', true, sequence(...(options.ca ? [bool(true)] : []))),
    extension('2.5.29.14', false, octets(keyId)),
    // digitalSignature (+ keyCertSign for a CA)
    extension('2.5.29.15', true, der(0x03, options.ca ? Buffer.from([0x02, 0x84]) : Buffer.from([0x07, 0x80]))),
  ];
  if (options.altNames?.length) {
    list.push(extension('2.5.29.17', false, sequence(...options.altNames.map(altName))));
    list.push(extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1')))); // serverAuth
  }
  return explicit(3, sequence(...list));
}

/** A self-signed certificate of `privateKey`'s public half, signed with it; DER. */
export function selfSignedCertificate(privateKey: KeyObject, options: SelfSignedOptions): Buffer {
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const ec = privateKey.asymmetricKeyType === 'ec';
  const algorithm = ec ? sequence(oid('1.2.840.10045.4.3.2')) : sequence(oid('1.2.840.113549.1.1.11'), NULL);
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const subject = name(options.commonName);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    subject,
    sequence(time(options.notBefore), time(options.notAfter)),
    subject,
    spki,
    extensions(options, spki),
  );
  const signature = sign('sha256', tbs, privateKey);
  return sequence(tbs, algorithm, bits(signature));
}

/** PEM armour of a DER certificate. */
export function certificatePem(derBytes: Buffer): string {
  const base64 = derBytes.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}
