import { Body, Controller, Get, HttpCode, Module, Post, Req } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  AccessTokenValidator,
  type AuthenticatedRequest,
  BearerGuard,
  RequireRoles,
  type ResourceServerOptions,
} from '@gatehouse/resource-server';

/**
 * A sample of the service's API (ACCESS-SPEC §5.2 steps 3–5): every request carries a Gatehouse
 * access token, checked by the resource-server guard. The orders themselves are a stand-in.
 */
@Controller('orders')
class OrdersController {
  private readonly orders: Array<{ id: number; item: string; by: string }> = [];

  @Get()
  @RequireRoles('Orders.Read')
  list(@Req() req: AuthenticatedRequest) {
    return { orders: this.orders, caller: req.auth?.azp ?? req.auth?.appid };
  }

  @Post()
  @HttpCode(201)
  @RequireRoles('Orders.Write')
  create(@Body() body: { item?: unknown }, @Req() req: AuthenticatedRequest) {
    const order = {
      id: this.orders.length + 1,
      item: String(body?.item ?? ''),
      by: String(req.auth?.azp ?? req.auth?.appid),
    };
    this.orders.push(order);
    return order;
  }
}

@Module({ controllers: [OrdersController] })
class OrdersApiModule {}

export async function createOrdersApi(options: ResourceServerOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(OrdersApiModule, { logger: ['error', 'warn'] });
  app.useGlobalGuards(new BearerGuard(new AccessTokenValidator(options), app.get(Reflector), 'orders'));
  await app.init();
  return app;
}
