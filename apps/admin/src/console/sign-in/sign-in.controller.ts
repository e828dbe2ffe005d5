import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConsoleSignInController } from '../frame/console-controller.js';
import { EnrolmentFlow } from './enrolment.flow.js';
import { PasskeySignInFlow } from './passkey.flow.js';
import { SignInFlow } from './sign-in.flow.js';

/** The sign-in steps: password, code (or passkey), authenticator enrolment, the first-sign-in link, sign out. */
@ConsoleSignInController()
export class SignInController {
  constructor(
    private readonly signIn: SignInFlow,
    private readonly enrolment: EnrolmentFlow,
    private readonly passkey: PasskeySignInFlow,
  ) {}

  @Get('login')
  showPassword(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.showPassword(req, res);
  }

  @Post('login')
  password(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.password(req, res);
  }

  @Get('login/code')
  showCode(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.showCode(req, res);
  }

  @Post('login/code')
  code(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.code(req, res);
  }

  @Post('login/passkey/options')
  passkeyOptions(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.passkey.options(req, res);
  }

  @Post('login/passkey')
  passkeySignIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.passkey.verify(req, res);
  }

  @Post('logout')
  signOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.signIn.signOut(req, res);
  }

  @Get('enroll')
  showEnrolment(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enrolment.showEnrolment(req, res);
  }

  @Post('enroll')
  enrol(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enrolment.enrol(req, res);
  }

  @Get('activate/:token')
  showActivation(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enrolment.showActivation(req, res, token);
  }

  @Post('activate/:token')
  activate(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.enrolment.activate(req, res, token);
  }
}
