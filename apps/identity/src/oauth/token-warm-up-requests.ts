/**
 * The warm-up's token requests, one per header set that token clients send (the fields in their
 * order; Node parses each set into a `req.headers` object of its own hidden class). Six sets, more
 * than V8's polymorphic property caches hold (four): the warm-up leaves every header read on the
 * token path megamorphic, so a client whose headers come in yet another order finds code that
 * handles any order, instead of discarding the optimized code at its first request (measured,
 * BENCHMARKS.md: one set of three headers gave a fresh replica a p99 of 145–184 ms in each of its
 * first two seconds at half its peak).
 */
const HEADER_SETS: Array<Array<[string, string]>> = [
  // A raw keep-alive client (load generators).
  [['Host', '{host}'], ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', '{length}'], ['Connection', 'keep-alive']],
  // curl.
  [['Host', '{host}'], ['User-Agent', 'curl/8.14.1'], ['Accept', '*/*'], ['Content-Length', '{length}'], ['Content-Type', 'application/x-www-form-urlencoded']],
  // MSAL (Node's http client: its headers first, then Host and Connection).
  [
    ['Content-Type', 'application/x-www-form-urlencoded;charset=utf-8'],
    ['x-client-SKU', 'msal.js.node'],
    ['x-client-VER', '3.8.4'],
    ['x-client-OS', 'linux'],
    ['x-client-CPU', 'x64'],
    ['x-ms-lib-capability', 'retry-after, h429'],
    ['x-client-current-telemetry', '5|771,2,,,|,'],
    ['x-client-last-telemetry', '5|0|||0,0'],
    ['client-request-id', '8d3e0c4a-6f0e-4c39-9a43-3d1c9f1f6a52'],
    ['Content-Length', '{length}'],
    ['Host', '{host}'],
    ['Connection', 'keep-alive'],
  ],
  // fetch (undici: openid-client and other fetch-based clients).
  [
    ['host', '{host}'],
    ['connection', 'keep-alive'],
    ['content-type', 'application/x-www-form-urlencoded;charset=UTF-8'],
    ['accept', 'application/json'],
    ['accept-language', '*'],
    ['sec-fetch-mode', 'cors'],
    ['user-agent', 'node'],
    ['accept-encoding', 'gzip, deflate'],
    ['content-length', '{length}'],
  ],
  // A proxy in front (nginx's proxy_pass with keep-alive upstreams and the forwarding headers).
  [
    ['Host', '{host}'],
    ['X-Real-IP', '192.0.2.10'],
    ['X-Forwarded-For', '192.0.2.10'],
    ['X-Forwarded-Proto', 'https'],
    ['Content-Length', '{length}'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
  ],
  // The fewest a client may send, with a request id of its own.
  [['Host', '{host}'], ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', '{length}'], ['x-request-id', 'warm-up']],
];

/** The token request `path` with `body`, once per header set, as the bytes a client writes. */
export function warmUpRequests(path: string, host: string, body: string): Buffer[] {
  const length = String(Buffer.byteLength(body));
  return HEADER_SETS.map((headers) => {
    const lines = headers.map(([name, value]) => `${name}: ${value.replace('{host}', host).replace('{length}', length)}\r\n`);
    return Buffer.from(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`);
  });
}
