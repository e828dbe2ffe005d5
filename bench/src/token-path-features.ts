import { type FederatedFigures, federatedFigures, federatedSetup } from './federated-assertions.js';
import { type Provisioned, type Target, load, settings, smoke, startServer, stopServer, verifyOneToken } from './harness.js';
import type { Algorithm } from './protocol.js';
import { type Sample, sample } from './samples.js';
import { type SourceRangeFigures, rangeList, setRanges, sourceRangeFigures, until } from './source-ranges.js';

/**
 * Two features of the token path against a plain secret, on one fresh Gatehouse server in
 * alternating rounds (a slow minute of the shared machine hits all three): a federated assertion
 * (issuer keys cached; target ≥ 0.5× the secret rate) and 50 allowed source ranges on the client
 * (target ≥ 0.97×). Each round: the client without ranges (secret, then federated windows), then
 * with them; each after a warm-up, since a change of ranges drops the client from the caches. A
 * list without loopback is set once first: the token endpoint must refuse, which proves the check
 * is on the path measured. The client has no ranges again afterwards, whatever happened.
 */
export async function measureTokenPathFeatures(
  provisioned: Provisioned,
  gatehouse: Target,
  alg: Algorithm,
): Promise<{ federated: FederatedFigures; sourceRanges: SourceRangeFigures }> {
  const { issuer, target, federated } = await federatedSetup(provisioned, gatehouse);
  try {
    const server = await startServer(target);
    try {
      await verifyOneToken(target, server, alg);
      await verifyOneToken(federated, server, alg);
      await setRanges(provisioned, rangeList(false));
      await until(target, server, 400);
      const secrets: Sample[] = [];
      const assertions: Sample[] = [];
      const ranged: Sample[] = [];
      for (let i = 0; i < settings.rounds; i++) {
        await setRanges(provisioned, null);
        await until(target, server, 200);
        if (!smoke) for (const warm of [target, federated]) await load(warm, server, settings.warmupSeconds / 2);
        secrets.push(await sample(target, server));
        assertions.push(await sample(federated, server));
        await setRanges(provisioned, rangeList(true));
        await until(target, server, 200);
        if (!smoke) await load(target, server, settings.warmupSeconds);
        ranged.push(await sample(target, server));
      }
      return { federated: federatedFigures(secrets, assertions, issuer.requests), sourceRanges: sourceRangeFigures(secrets, ranged) };
    } finally {
      await setRanges(provisioned, null);
      await stopServer(server);
    }
  } finally {
    await issuer.close();
  }
}
