import 'reflect-metadata';
import { createOrdersApi } from './orders-api.app.js';

/**
 * The sample API on its own: ORDERS_API_AUTHORITY=https://id.example.com/<tenant-id>
 * ORDERS_API_AUDIENCE=api://orders,<app id> PORT=4000 node dist/apps/orders-api/src/main.js
 */
async function main(): Promise<void> {
  const authority = process.env.ORDERS_API_AUTHORITY;
  const audience = (process.env.ORDERS_API_AUDIENCE ?? 'api://orders').split(',');
  if (!authority) throw new Error('ORDERS_API_AUTHORITY is required (the tenant authority, {PUBLIC_URL}/{tenant id})');
  const app = await createOrdersApi({ authority, audience });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 4000));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
