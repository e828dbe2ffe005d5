/** The issuer of a tenant's tokens, exactly as discovery announces it. */
export function issuerOf(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/${tenantId}/v2.0`;
}

/** The issuer of a tenant's v1 tokens (Entra's `https://sts.windows.net/{tid}/`), as the v1 discovery says. */
export function v1IssuerOf(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/${tenantId}/`;
}
