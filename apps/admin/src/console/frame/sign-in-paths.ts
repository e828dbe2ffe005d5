import type { SecondFactorService } from '@gatehouse/accounts';
/** Where a password-only session goes next: the code, or the authenticator's enrolment. */
export async function signInPath(
  factors: SecondFactorService,
  base: string,
  session: { tenantId: string; userId: string },
): Promise<string> {
  const [summary] = await factors.summaries(session.tenantId, [session.userId]);
  return summary?.totpConfirmedAt ? `${base}/login/code` : `${base}/enroll`;
}
