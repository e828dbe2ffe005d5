import { readFileSync } from 'node:fs';
import { DynamicModule, type INestApplicationContext, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { type CertificateView, ClientCertificateService, ClientsModule } from '@gatehouse/clients';
import type { AppConfig } from '@gatehouse/config';
import { checkClientSecret } from '@gatehouse/crypto';
import { coreImports } from '@gatehouse/schema';
import { TenantService, TenantsModule } from '@gatehouse/tenants';
import { CommandError, type CommandInput, requiredOption } from './command.js';
import { withDatabase } from './database.run.js';
import { StderrLogger } from './stderr-logger.js';

/** `secret check`: exit 0 for a well-formed secret, 1 otherwise. Nothing leaves the machine. */
export async function checkSecret(input: CommandInput): Promise<number> {
  const result = checkClientSecret(input.positionals[0]!.trim());
  if (!result.wellFormed) {
    input.out(`not a well-formed Gatehouse client secret: ${result.reason}\n`);
    return 1;
  }
  input.out(`well-formed Gatehouse client secret (hint ${result.hint}); whether it is still valid only the token endpoint can tell\n`);
  return 0;
}

export function addCertificate(input: CommandInput): Promise<number> {
  const [clientId, file, displayName] = input.positionals as [string, string, string | undefined];
  const certificate = readPem(file);
  return withCertificates(input, async (certificates, tenantId) => {
    print(input, [await certificates.add(tenantId, SYSTEM_ACTOR, clientId, { certificate, displayName })]);
    return 0;
  });
}

export function listCertificates(input: CommandInput): Promise<number> {
  return withCertificates(input, async (certificates, tenantId) => {
    print(input, await certificates.list(tenantId, input.positionals[0]!));
    return 0;
  });
}

export function removeCertificate(input: CommandInput): Promise<number> {
  const [clientId, keyId] = input.positionals as [string, string];
  return withCertificates(input, async (certificates, tenantId) => {
    await certificates.remove(tenantId, SYSTEM_ACTOR, clientId, keyId);
    input.out(`removed certificate ${keyId}\n`);
    return 0;
  });
}

function readPem(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function print(input: CommandInput, views: CertificateView[]): void {
  input.out(
    input.values.json === true
      ? `${JSON.stringify(views, null, 2)}\n`
      : views.map((v) => `${v.keyId}  ${v.thumbprint}  ${v.notAfter}  ${v.subject}  ${v.displayName}\n`).join(''),
  );
}

@Module({})
class CertificatesContextModule {
  static register(config: AppConfig, more: Type[]): DynamicModule {
    return {
      module: CertificatesContextModule,
      imports: [...coreImports(config, { app: 'cli', poolSize: 2 }), TenantsModule, ClientsModule, ...more],
    };
  }
}

/** The tenant named by --tenant and the certificate use cases, on a migrated database. */
function withCertificates(
  input: CommandInput,
  work: (certificates: ClientCertificateService, tenantId: string) => Promise<number>,
): Promise<number> {
  return withClientsContext(input, (context, tenantId) => work(context.get(ClientCertificateService), tenantId));
}

/**
 * The tenant named by --tenant and the clients context (its credential use cases; `more` modules
 * beside it), on a migrated database; a domain error becomes a CommandError with its message.
 */
export function withClientsContext(
  input: CommandInput,
  work: (context: INestApplicationContext, tenantId: string) => Promise<number>,
  more: Type[] = [],
): Promise<number> {
  const tenant = requiredOption(input, 'tenant');
  return withDatabase(input, async (config) => {
    const context = await NestFactory.createApplicationContext(CertificatesContextModule.register(config, more), {
      logger: new StderrLogger(),
    });
    try {
      const found = await context.get(TenantService).findByIdOrSlug(tenant);
      if (!found) throw new CommandError(`No tenant "${tenant}".`);
      return await work(context, found.id);
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(error instanceof Error ? error.message : String(error));
    } finally {
      await context.close();
    }
  });
}
