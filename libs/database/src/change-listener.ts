import pg from 'pg';
import { CHANGE_CHANNEL, ChangeEvent, parseChange } from './change-notifier.js';

type Subscriber = (event: ChangeEvent) => void;

/**
 * Holds one dedicated connection that LISTENs for {@link CHANGE_CHANNEL}. Caches subscribe to it
 * and must not trust themselves while {@link connected} is false: a notification may have been
 * missed, so every subscriber is told to drop everything whenever the connection is (re)made.
 *
 * It also knows when Postgres is down: the connection was lost at {@link disconnectedAt} and a
 * query has failed since ({@link reportUnreachable}). Caches that may serve through an outage
 * ({@link servesHeldEntries}) hold their entries meanwhile, and drop them when it is back.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private readonly subscribers = new Set<Subscriber>();
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private isConnected = false;
  private lostAt: number | null = null;
  private unreachable = false;
  private wasLost = false;

  constructor(
    private readonly url: string,
    private readonly log: (message: string) => void = () => undefined,
    /** Called each time the connection is made again after it was lost (a metric counts them). */
    private readonly onReconnect: () => void = () => undefined,
  ) {}

  get connected(): boolean {
    return this.isConnected;
  }

  /** When the connection was lost (null while connected). */
  get disconnectedAt(): number | null {
    return this.isConnected ? null : this.lostAt;
  }

  /** A query failed because Postgres cannot be reached: while disconnected, that confirms an outage. */
  reportUnreachable(): void {
    if (!this.isConnected) this.unreachable = true;
  }

  /**
   * True while an outage is confirmed (connection lost, a query failed since) and began less than
   * `graceMs` ago: entries loaded before it may be served. Merely losing this connection while
   * queries still work is no outage: caches are then bypassed, as always while disconnected.
   */
  servesHeldEntries(graceMs: number): boolean {
    return graceMs > 0 && !this.isConnected && this.unreachable && Date.now() - (this.lostAt ?? 0) < graceMs;
  }

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.isConnected = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'gatehouse-listener' });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      const event = message.payload ? parseChange(message.payload) : undefined;
      if (event) this.publish(event);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.client = client;
      this.isConnected = true;
      this.unreachable = false;
      this.lostAt = null;
      if (this.wasLost) this.onReconnect();
      this.wasLost = false;
      this.publish({ kind: 'tenant', tenantId: '*', id: '*' });
    } catch (error) {
      await client.end().catch(() => undefined);
      this.lostAt ??= Date.now();
      this.log(`change listener could not connect: ${(error as Error).message}`);
      this.scheduleRetry();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.isConnected = false;
    this.lostAt = Date.now();
    this.wasLost = true;
    // Entries stay: they are not trusted while disconnected, may serve through a confirmed outage,
    // and are all dropped by the announcement every (re)connection makes.
    client.end().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), 1_000);
    this.retryTimer.unref();
  }

  /**
   * A change this process has just committed: its own caches hear it now, before the notification
   * comes back through PostgreSQL (which tells the other processes, and this one again).
   */
  heard(event: ChangeEvent): void {
    this.publish(event);
  }

  private publish(event: ChangeEvent): void {
    for (const subscriber of this.subscribers) subscriber(event);
  }
}
