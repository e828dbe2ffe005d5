import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Request, Response } from 'express';
import { PasskeyService } from '@gatehouse/accounts';
import { ConsoleSession } from '../frame/console-session.js';
import { PasskeySupport } from '../frame/passkey-support.js';
import { SignInFlow } from './sign-in.flow.js';

/** The second step with a passkey instead of a code (the page's script asks the browser for it). */
@Injectable()
export class PasskeySignInFlow {
  constructor(
    private readonly signIn: SignInFlow,
    private readonly session: ConsoleSession,
    private readonly passkeys: PasskeyService,
    private readonly support: PasskeySupport,
  ) {}

  async options(req: Request, res: Response): Promise<void> {
    const { scope, pending } = await this.signIn.pending(req);
    this.session.checkForm(req, pending.csrfToken);
    const options = await this.passkeys.authenticationOptions(scope.tenant.id, pending.userId, this.support.rp);
    await this.support.sendOptions(res, pending.sessionId, options);
  }

  async verify(req: Request, res: Response): Promise<void> {
    const step = await this.signIn.pending(req);
    this.session.checkForm(req, step.pending.csrfToken);
    const { challenge, response } = await this.support.takeResponse<AuthenticationResponseJSON>(req, step.pending.sessionId);
    const outcome = await this.passkeys.verify(step.scope.tenant.id, step.pending.userId, response, { challenge, rp: this.support.rp }, req.ip);
    await this.signIn.finish(req, res, step, outcome, 'The passkey could not be checked. Try again, or enter a code from your app.');
  }
}
