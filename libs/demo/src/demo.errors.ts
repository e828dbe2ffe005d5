export enum DemoErrorCode {
  /** The database holds data of its own: the demo leaves it alone. */
  NotADemoDatabase = 'not_a_demo_database',
}

export class DemoError extends Error {
  constructor(
    readonly code: DemoErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DemoError';
  }
}
