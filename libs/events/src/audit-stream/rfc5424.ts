import { hostname } from 'node:os';

/** Facility 13 (log audit) × 8 + severity 6 (informational). */
const PRIORITY = 13 * 8 + 6;
const APP_NAME = 'gatehouse';

/** A header field of RFC 5424: printable US-ASCII without spaces, at most `max` characters, or the nil value. */
function field(value: string, max: number): string {
  const printable = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return printable || '-';
}

/** JSON with every character beyond ASCII escaped, so the message is plain ASCII (no BOM needed). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export interface SyslogEvent {
  occurredAt: string;
  action: string;
}

/**
 * One audit event as an RFC 5424 message — `<110>1 TIMESTAMP HOST gatehouse PID ACTION - {json}` —
 * framed by octet counting (RFC 6587 §3.4.1: the length, a space, the message) for TCP and TLS.
 */
export function syslogFrame(event: SyslogEvent, json: unknown, host = hostname(), pid = process.pid): string {
  const message = `<${PRIORITY}>1 ${event.occurredAt} ${field(host, 255)} ${APP_NAME} ${pid} ${field(event.action, 32)} - ${asciiJson(json)}`;
  return `${Buffer.byteLength(message, 'utf8')} ${message}`;
}
