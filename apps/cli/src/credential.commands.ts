import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { type CertificateView, ClientCertificateService, ClientsModule } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { checkClientSecret } from '@gatehouse/crypto';
import { coreImports, migrateDatabase } from '@gatehouse/schema';
import { TenantService, TenantsModule } from '@gatehouse/tenants';
import { resolveDatabase } from './database-runtime.js';

export const CREDENTIAL_USAGE = `  secret check <value>                     say offline whether a value is a well-formed Gatehouse secret
  certificate add --tenant <slug> <clientId> <certificate.pem> [display name] [--json]
  certificate list --tenant <slug> <clientId> [--json]
  certificate remove --tenant <slug> <clientId> <keyId>
                                           certificate credentials of a client (the public certificate only)
`;

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

/** `secret …` and `certificate …`; `args` are the words after the command. Returns the exit code. */
export async function runCredentialCommand(command: string, config: AppConfig, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { tenant: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [action, ...rest] = positionals;
  if (command === 'secret' && action === 'check' && rest.length === 1) return checkSecret(rest[0]!);
  if (command === 'certificate' && values.tenant && action && rest.length >= 1) {
    return withCertificates(config, values.tenant, (certificates, tenantId) =>
      certificateAction(certificates, tenantId, action, rest, values.json ?? false),
    );
  }
  err(`Usage:\n${CREDENTIAL_USAGE}`);
  return 2;
}

function checkSecret(value: string): number {
  const result = checkClientSecret(value.trim());
  if (result.wellFormed) {
    out(
      `well-formed Gatehouse client secret (hint ${result.hint}); whether it is still valid only the token endpoint can tell\n`,
    );
    return 0;
  }
  out(`not a well-formed Gatehouse client secret: ${result.reason}\n`);
  return 1;
}

async function certificateAction(
  certificates: ClientCertificateService,
  tenantId: string,
  action: string,
  [clientId, argument, displayName]: string[],
  json: boolean,
): Promise<number> {
  const print = (views: CertificateView[]) =>
    out(
      json
        ? `${JSON.stringify(views, null, 2)}\n`
        : views.map((v) => `${v.keyId}  ${v.thumbprint}  ${v.notAfter}  ${v.subject}  ${v.displayName}\n`).join(''),
    );
  if (action === 'add' && argument) {
    print([
      await certificates.add(tenantId, SYSTEM_ACTOR, clientId!, {
        certificate: readFileSync(argument, 'utf8'),
        displayName,
      }),
    ]);
    return 0;
  }
  if (action === 'list') {
    print(await certificates.list(tenantId, clientId!));
    return 0;
  }
  if (action === 'remove' && argument) {
    await certificates.remove(tenantId, SYSTEM_ACTOR, clientId!, argument);
    out(`removed certificate ${argument}\n`);
    return 0;
  }
  err(`Usage:\n${CREDENTIAL_USAGE}`);
  return 2;
}

@Module({})
class CertificatesContextModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CertificatesContextModule,
      imports: [...coreImports(config, { app: 'cli', poolSize: 2 }), TenantsModule, ClientsModule],
    };
  }
}

async function withCertificates(
  config: AppConfig,
  tenant: string,
  work: (certificates: ClientCertificateService, tenantId: string) => Promise<number>,
): Promise<number> {
  const runtime = await resolveDatabase(config, (line) => err(`${line}\n`));
  try {
    await migrateDatabase(runtime.config.databaseUrl);
    const context = await NestFactory.createApplicationContext(CertificatesContextModule.register(runtime.config), {
      logger: ['error', 'warn'],
    });
    try {
      const found = await context.get(TenantService).findByIdOrSlug(tenant);
      if (!found) {
        err(`No tenant "${tenant}".\n`);
        return 1;
      }
      return await work(context.get(ClientCertificateService), found.id);
    } catch (error) {
      err(`${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    } finally {
      await context.close();
    }
  } finally {
    await runtime.stop();
  }
}
