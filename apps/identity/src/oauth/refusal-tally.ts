/**
 * Counts events that would each deserve a log line and reports them at most once per interval: the
 * first at once, then the count of each interval when it ends (a timer, so the last burst is told too).
 */
export class RefusalTally {
  private pending = 0;
  private since = new Date();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly report: (count: number, since: Date) => void,
  ) {}

  count(): void {
    if (this.timer === undefined) {
      this.report(1, new Date());
      this.since = new Date();
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
      return;
    }
    this.pending++;
  }

  private flush(): void {
    const count = this.pending;
    this.pending = 0;
    this.timer = undefined;
    if (count === 0) return;
    this.report(count, this.since);
    this.since = new Date();
    this.timer = setTimeout(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }
}
