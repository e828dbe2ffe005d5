import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Where an app stands: serving, or draining after SIGTERM (readiness answers 503 from then on). */
@Injectable()
export class AppLifecycle {
  draining = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Ready to take work: not draining, and Postgres answers within 1.5 s. */
  async ready(): Promise<boolean> {
    if (this.draining) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 1_500)));
    const ping = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([ping, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
