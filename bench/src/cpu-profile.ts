import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The parts of a V8 `.cpuprofile` (Chrome DevTools format) that self time needs. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds on the monotonic clock that V8 stamps samples with (the same as `process.hrtime`). */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface FrameSelfTime {
  frame: string;
  selfMs: number;
  selfPct: number;
}

export interface ProfileSummary {
  totalMs: number;
  topFrames: FrameSelfTime[];
  /** Self time by origin: an npm package, node internals, Gatehouse's own code, GC, idle. */
  byOrigin: FrameSelfTime[];
  /**
   * Self time by origin, with the time spent in node internals and native code charged to the
   * nearest caller that is a package or Gatehouse (a `writev` under pino counts for pino); what
   * no package called (the HTTP parser, the event loop) stays with node.
   */
  attributed: FrameSelfTime[];
}

const UNATTRIBUTED = new Set(['node internals', '(native)', 'other']);

function shortUrl(url: string): string {
  if (!url) return '';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

function originOf(name: string, url: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.includes('/dist/')) return 'gatehouse';
  return 'other';
}

function rank(totals: Map<string, number>, totalMs: number, limit: number): FrameSelfTime[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([frame, ms]) => ({ frame, selfMs: Math.round(ms * 10) / 10, selfPct: Math.round((ms / totalMs) * 1000) / 10 }));
}

/**
 * Self time per frame (function + file + line) and per origin, from the samples and their deltas;
 * with a window, only the samples taken inside it (the measured load, not boot or warm-up).
 */
export function summarizeCpuProfile(path: string, limit = 20, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const frames = new Map<string, number>();
  const origins = new Map<string, number>();
  const attributed = new Map<string, number>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (frame: { functionName: string; url: string; lineNumber: number }) =>
    frame.url ? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : frame.functionName || '(anonymous)';
  let totalMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    const ms = delta / 1000;
    const frame = byId.get(id);
    if (!frame || ms <= 0) return;
    totalMs += ms;
    const name = frame.functionName || '(anonymous)';
    const key = keyOf(frame);
    frames.set(key, (frames.get(key) ?? 0) + ms);
    const origin = originOf(name, frame.url);
    origins.set(origin, (origins.get(origin) ?? 0) + ms);
    let owner = origin;
    for (let node = parent.get(id); UNATTRIBUTED.has(owner) && node !== undefined; node = parent.get(node)) {
      const callFrame = byId.get(node)!;
      const callerOrigin = originOf(callFrame.functionName, callFrame.url);
      if (!UNATTRIBUTED.has(callerOrigin) && callerOrigin !== '(root)') owner = callerOrigin;
    }
    attributed.set(owner, (attributed.get(owner) ?? 0) + ms);
  });
  return {
    totalMs: Math.round(totalMs),
    topFrames: rank(frames, totalMs, limit),
    byOrigin: rank(origins, totalMs, limit),
    attributed: rank(attributed, totalMs, limit),
  };
}

export function printProfileSummary(summary: ProfileSummary): void {
  console.log(`\nCPU profile: ${summary.totalMs} ms sampled`);
  console.log('top self-time frames:');
  for (const f of summary.topFrames) console.log(`  ${f.selfPct.toFixed(1).padStart(5)} %  ${f.frame}`);
  console.log('self time by origin:');
  for (const f of summary.byOrigin) console.log(`  ${f.selfPct.toFixed(1).padStart(5)} %  ${f.frame}`);
  console.log('self time with node internals charged to the package that called them:');
  for (const f of summary.attributed) console.log(`  ${f.selfPct.toFixed(1).padStart(5)} %  ${f.frame}`);
}

// `node dist/bench/src/cpu-profile.js <file.cpuprofile> [limit]` summarises any profile.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, limit] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-profile.js <file.cpuprofile> [limit]');
  printProfileSummary(summarizeCpuProfile(file, limit ? Number(limit) : 20));
}
