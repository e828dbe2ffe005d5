import { generateKeyPairSync } from 'node:crypto';
import { exportJWK } from 'jose';
import Provider from 'oidc-provider';
import { type Algorithm, announceReady, exitOnSignal, requiredEnv } from './protocol.js';

/**
 * node-oidc-provider set up for the same job: the client credentials grant only, one client with a
 * secret (client_secret_post), JWT access tokens for one resource, signed with the same algorithm.
 */
const port = Number(requiredEnv('PORT'));
const alg = requiredEnv('ALG') as Algorithm;
const resource = requiredEnv('RESOURCE');
const scope = requiredEnv('SCOPE');

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const keys = [
  { ...(await exportJWK(ec)), kid: 'ec', alg: 'ES256', use: 'sig' },
  { ...(await exportJWK(rsa)), kid: 'rsa', alg: 'RS256', use: 'sig' },
];

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: requiredEnv('CLIENT_ID'),
      client_secret: requiredEnv('CLIENT_SECRET'),
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  jwks: { keys },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope, audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg } } }),
    },
  },
});
provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider server_error', error));

const server = provider.listen(port, '127.0.0.1', announceReady);
exitOnSignal(() => new Promise<void>((resolve) => server.close(() => resolve())));
