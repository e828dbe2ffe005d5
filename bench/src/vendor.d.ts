// Minimal typing of the part of autocannon 9 the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  export interface AutocannonResult {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  export interface AutocannonOptions {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    pipelining?: number;
    timeout?: number;
    /** Per-request bodies: `setupRequest` returns the request to send next. */
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (request: { body?: string }) => { body?: string };
    }>;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}

// node-oidc-provider 9 ships no types; the benchmark needs its constructor, events and Koa's listen.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    on(event: string, listener: (...args: never[]) => void): this;
    listen(port: number, host: string, callback: () => void): Server;
  }
}
