import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import type { Permission, Role } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';
import type { SessionFlash } from '@gatehouse/sessions';
import type { Tenant } from '@gatehouse/tenants';

/**
 * The person signed in to the console, as the domain sees them: an {@link Actor} naming the
 * person (no client) with the permissions of their roles as they are now. It is passed to the same
 * use cases the REST controllers call, so permission checks and audit events are the same.
 */
export interface ConsolePrincipal extends Actor {
  type: 'user';
  userId: string;
  clientId: null;
  permissions: Permission[];
  tenantId: string;
  tenant: Tenant;
  /** Where this tenant's console is: `/console` or `/t/{tenant}/console`; every link starts here. */
  base: string;
  username: string;
  displayName: string;
  roles: Role[];
  sessionId: Buffer;
  csrfToken: string;
  /** When a second factor was last proved (step-up asks again after {@link STEP_UP_SECONDS}). */
  secondFactorAt: Date;
  mustChangePassword: boolean;
  /** Messages for this page, taken from the session. */
  flash: SessionFlash[];
}

/** A second factor older than this is asked again before a sensitive action (DESIGN §7). */
export const STEP_UP_SECONDS = 5 * 60;

export interface ConsoleRequest extends Request {
  console?: ConsolePrincipal;
  /** The one-time form token this POST claimed (see ConsoleOnce); `settled` once its outcome is recorded. */
  formOnce?: { token: string; settled?: boolean };
  /** The handler asks for the fresh second factor itself, after checking its form (`@StepUp({ afterValidation: true })`). */
  stepUpDue?: boolean;
}

/** The signed-in person the console guard admitted to this handler. */
export const Console = createParamDecorator((_data: unknown, context: ExecutionContext): ConsolePrincipal => {
  const principal = context.switchToHttp().getRequest<ConsoleRequest>().console;
  if (!principal) throw new Error('@Console() used on a handler without @ConsolePage()');
  return principal;
});
