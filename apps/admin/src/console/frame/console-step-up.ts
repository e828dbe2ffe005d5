import { Injectable } from '@nestjs/common';
import { SecondFactorService } from '@gatehouse/accounts';
import { SessionService } from '@gatehouse/sessions';
import { wrongCodeRefusal } from '@gatehouse/views';
import { StepUpRequired } from './console.errors.js';
import { field, formFields } from './console-forms.js';
import { type ConsolePrincipal, type ConsoleRequest, STEP_UP_SECONDS } from './console-principal.js';

/**
 * The fresh second factor of a sensitive action: already fresh, or the code typed into the
 * step-up form, or the step-up form (which posts the same form again with what was typed).
 * The guard asks it before the handler; a handler that checks its form first
 * (`@StepUp({ afterValidation: true })`) asks it itself, once the form is valid.
 */
@Injectable()
export class ConsoleStepUp {
  constructor(
    private readonly factors: SecondFactorService,
    private readonly sessions: SessionService,
  ) {}

  async confirm(req: ConsoleRequest, who: ConsolePrincipal): Promise<void> {
    req.stepUpDue = false;
    if (who.secondFactorAt.getTime() > Date.now() - STEP_UP_SECONDS * 1000) return;
    const code = field(req, '_stepup_code');
    if (!code) throw new StepUpRequired(req.originalUrl, formFields(req));
    const outcome = await this.factors.verify(who.tenantId, who.userId, code, req.ip);
    if (!outcome.ok) {
      const message = outcome.throttled
        ? 'Too many failed sign-ins from your network: codes are not checked for now. Nothing was changed; try again later.'
        : outcome.lockedUntil
          ? `${wrongCodeRefusal(outcome.lockedUntil)} Nothing was changed.`
          : 'That code did not work. Enter the current code from your authenticator app.';
      throw new StepUpRequired(req.originalUrl, formFields(req), message);
    }
    who.secondFactorAt = await this.sessions.markSecondFactor(who.sessionId);
  }
}
