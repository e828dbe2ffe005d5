import { readFileSync } from 'node:fs';
import { getHeapCodeStatistics, getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import type { ChildProcess } from 'node:child_process';

/** Where a server's memory is, in MB: what the kernel counts, then what V8 and Node hold. */
export interface MemoryBreakdown {
  /** From /proc/<pid>/status: resident anonymous memory (heaps, malloc), mapped files (the node binary's code), shared. */
  rssMb: number;
  rssAnonMb: number;
  rssFileMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  /** Memory of C++ objects tied to JavaScript ones (Buffers, crypto keys, sockets). */
  externalMb: number;
  arrayBuffersMb: number;
  /** V8's own malloc (compiler zones, parser); not part of the heap. */
  mallocedMb: number;
  /** Each heap space: size reserved by V8 and the part in use. */
  spaces: Record<string, { sizeMb: number; usedMb: number }>;
  codeAndMetadataMb: number;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

/** The breakdown of this process (a server child answers the parent's 'memory' message with it). */
export function ownMemory(): MemoryBreakdown {
  const usage = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  const code = getHeapCodeStatistics();
  return {
    rssMb: mb(usage.rss),
    rssAnonMb: mb(kb('RssAnon')),
    rssFileMb: mb(kb('RssFile')),
    heapTotalMb: mb(usage.heapTotal),
    heapUsedMb: mb(usage.heapUsed),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    mallocedMb: mb(getHeapStatistics().malloced_memory),
    spaces: Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, { sizeMb: mb(s.space_size), usedMb: mb(s.space_used_size) }]),
    ),
    codeAndMetadataMb: mb(code.code_and_metadata_size + code.bytecode_and_metadata_size),
  };
}

/** Answers the parent's 'memory' message with {@link ownMemory}; a server child installs it once. */
export function answerMemoryRequests(): void {
  process.on('message', (message) => {
    if (message === 'memory') process.send?.({ memory: ownMemory() });
  });
}

/** Asks a server child for its breakdown (null when it does not answer within a second). */
export function memoryOf(child: ChildProcess): Promise<MemoryBreakdown | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), 1_000);
    const onMessage = (message: { memory?: MemoryBreakdown }) => message.memory && done(message.memory);
    const done = (value: MemoryBreakdown | null) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(value);
    };
    child.on('message', onMessage);
    child.send('memory');
  });
}
