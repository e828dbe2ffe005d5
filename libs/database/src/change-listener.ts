import pg from 'pg';
import { CHANGE_CHANNEL, ChangeEvent, parseChange } from './change-notifier.js';

type Subscriber = (event: ChangeEvent) => void;

/**
 * Holds one dedicated connection that LISTENs for {@link CHANGE_CHANNEL}. Caches subscribe to it
 * and must not trust themselves while {@link connected} is false: a notification may have been
 * missed, so every subscriber is told to drop everything whenever the connection is (re)made.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private readonly subscribers = new Set<Subscriber>();
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private isConnected = false;
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
      if (this.wasLost) this.onReconnect();
      this.wasLost = false;
      this.publish({ kind: 'tenant', tenantId: '*', id: '*' });
    } catch (error) {
      await client.end().catch(() => undefined);
      this.log(`change listener could not connect: ${(error as Error).message}`);
      this.scheduleRetry();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.isConnected = false;
    this.wasLost = true;
    this.publish({ kind: 'tenant', tenantId: '*', id: '*' });
    client.end().catch(() => undefined);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), 1_000);
    this.retryTimer.unref();
  }

  private publish(event: ChangeEvent): void {
    for (const subscriber of this.subscribers) subscriber(event);
  }
}
