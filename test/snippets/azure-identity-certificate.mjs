// The @azure/identity snippet of docs/client-developers.md, run as a daemon would run it: the only Gatehouse-specific
// settings are authorityHost and disableInstanceDiscovery; the development certificate is trusted
// through NODE_EXTRA_CA_CERTS. Inputs come from the environment; prints the token's claims.
import { ClientCertificateCredential } from '@azure/identity';

const { GATEHOUSE_URL, TENANT_ID, CLIENT_ID, CERTIFICATE_PEM } = process.env;

const credential = new ClientCertificateCredential(
  TENANT_ID, // tenant id (a UUID) as Entra's
  CLIENT_ID,
  { certificate: CERTIFICATE_PEM }, // private key and certificate, PEM (or certificatePath)
  { authorityHost: GATEHOUSE_URL, disableInstanceDiscovery: true },
);
const { token } = await credential.getToken('api://orders/.default');
process.stdout.write(Buffer.from(token.split('.')[1], 'base64url').toString());
