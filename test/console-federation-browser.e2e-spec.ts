import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { Screenshots, launchBrowser } from './support/browser.js';
import { type ConsoleApp, type StaffMember, signInInBrowser, startConsoleApp } from './support/console.js';
import { WIDE, checkPage } from './support/page-checks.js';

/**
 * The client page's federated credentials in Chromium (DESIGN §11, SECURITY 57): the scenario
 * forms show the subject they make before anything is saved, adding asks for a fresh second
 * factor, a refusal comes back beside its field, removing asks once; axe-core and screenshots at
 * 1280 and 390 px on every page.
 */
describe('console: federated credentials in a browser', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;
  let carla: StaffMember;
  let clientPage: string;
  let clientId: string;
  const shots = new Screenshots('console-federation');

  const events = (action: string) =>
    app.db.query(`SELECT actor_id, details FROM audit_events WHERE action = $1 AND target_id = $2 ORDER BY occurred_at`, [action, clientId]);
  const ageSecondFactor = () =>
    app.db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`, [carla.id]);
  const add = () => page.getByRole('button', { name: 'Add the federated credential' }).click();

  beforeAll(async () => {
    app = await startConsoleApp();
    browser = await launchBrowser();
    carla = await app.staff.staff(app.tenantId, ['ContactPerson'], { username: 'carla' });
    const client = await app.admin.get(ClientService).create(app.tenantId, SYSTEM_ACTOR, {
      displayName: 'Orders deploy',
      contactEmail: 'ops@partner.example',
    });
    clientId = client.clientId;
    clientPage = `${app.origin}/console/clients/${clientId}`;
    page = await (await browser.newContext({ viewport: WIDE })).newPage();
    await signInInBrowser(page, `${app.origin}/console/login`, carla, await app.staff.secondFactor(carla));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('GitHub Actions: the subject is shown before it is saved; adding puts it on the client page, audited as the person', async () => {
    await page.goto(clientPage);
    await page.getByRole('heading', { name: 'Federated credentials' }).waitFor();
    await checkPage(page, shots, 'client-federation-empty');
    await page.getByRole('link', { name: 'Add federated credential' }).click();
    await page.getByRole('heading', { level: 1, name: 'Add a federated credential' }).waitFor();
    await checkPage(page, shots, 'federation-github');
    await page.getByLabel('Organisation').fill('contoso');
    await page.getByLabel('Repository').fill('orders');
    await page.getByLabel('The jobs to trust').selectOption('environment');
    await page.getByLabel('Branch, environment or tag').fill('production');
    await page.getByRole('button', { name: 'Show the subject' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('repo:contoso/orders:environment:production');
    await checkPage(page, shots, 'federation-github-subject');
    await page.getByLabel('Name', { exact: true }).fill('github-production');
    await add();
    await page.waitForURL(clientPage);
    await expect(page.locator('.flash').textContent()).resolves.toContain(
      'Federated credential github-production added: tokens of https://token.actions.githubusercontent.com with subject repo:contoso/orders:environment:production',
    );
    await checkPage(page, shots, 'client-federation-listed');
    const [added] = await events('client.federated_credential.added');
    expect(added).toMatchObject({ actor_id: carla.id, details: { audiences: ['api://AzureADTokenExchange'] } });
  });

  it('a branch pattern becomes an expression; Kubernetes makes system:serviceaccount:<namespace>:<account>', async () => {
    await page.goto(`${clientPage}/federated-credentials/new`);
    await page.getByLabel('Organisation').fill('contoso');
    await page.getByLabel('Repository').fill('orders');
    await page.getByLabel('Branch, environment or tag').fill('release/*');
    await page.getByLabel('Name', { exact: true }).fill('github-releases');
    await add();
    await page.waitForURL(clientPage);
    await page.getByRole('link', { name: 'Add federated credential' }).click();
    await page.getByRole('link', { name: 'Kubernetes' }).click();
    await page.getByLabel('Cluster issuer URL').fill('https://oidc.prod-cluster.example/abc');
    await page.getByLabel('Namespace').fill('orders');
    await page.getByLabel('Service account').fill('orders-sync');
    await page.getByRole('button', { name: 'Show the subject' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('system:serviceaccount:orders:orders-sync');
    await checkPage(page, shots, 'federation-kubernetes-subject');
    await page.getByLabel('Name', { exact: true }).fill('k8s-prod');
    await add();
    await page.waitForURL(clientPage);
    const rows = await app.db.query(`SELECT name, subject, claims_expression FROM client_federated_credentials ORDER BY created_at`);
    expect(rows.slice(1)).toEqual([
      { name: 'github-releases', subject: null, claims_expression: "claims['sub'] matches 'repo:contoso/orders:ref:refs/heads/release/*'" },
      { name: 'k8s-prod', subject: 'system:serviceaccount:orders:orders-sync', claims_expression: null },
    ]);
  });

  it('any other issuer: an expression it cannot read comes back beside the field, as typed', async () => {
    await page.goto(`${clientPage}/federated-credentials/new?scenario=other`);
    await page.getByLabel('Issuer URL').fill('https://gitlab.example.com');
    await page.getByLabel('Claims-matching expression (instead of a subject)').fill("claims['sub'] like 'project_path:*'");
    await page.getByLabel('Name', { exact: true }).fill('gitlab');
    await add();
    const field = page.getByLabel('Claims-matching expression (instead of a subject)');
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(field.inputValue()).resolves.toBe("claims['sub'] like 'project_path:*'");
    await expect(page.locator('.field-error').textContent()).resolves.toContain("the operator is 'matches' or 'eq'");
    await checkPage(page, shots, 'federation-other-refused');
  });

  it('adding asks for a fresh second factor and then continues as submitted; removing asks once', async () => {
    await ageSecondFactor();
    await page.goto(`${clientPage}/federated-credentials/new?scenario=other`);
    await page.getByLabel('Issuer URL').fill('https://issuer.partner.example');
    await page.getByLabel('Subject', { exact: true }).fill('orders-batch');
    await page.getByLabel('Name', { exact: true }).fill('partner-batch');
    await add();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    expect(await app.db.query(`SELECT 1 FROM client_federated_credentials WHERE name = 'partner-batch'`)).toEqual([]);
    await checkPage(page, shots, 'federation-step-up');
    await page.getByLabel('Authentication code').fill(await app.staff.secondFactor(carla));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL(clientPage);
    await expect(page.locator('.flash').textContent()).resolves.toContain('Federated credential partner-batch added');
    await page.getByRole('link', { name: 'Remove federated credential partner-batch' }).click();
    await page.getByRole('heading', { name: 'Remove the federated credential?' }).waitFor();
    await checkPage(page, shots, 'federation-remove');
    await page.getByRole('button', { name: 'Remove the federated credential' }).click();
    await page.waitForURL(clientPage);
    expect(await app.db.query(`SELECT 1 FROM client_federated_credentials WHERE name = 'partner-batch'`)).toEqual([]);
    expect(await events('client.federated_credential.removed')).toEqual([expect.objectContaining({ actor_id: carla.id })]);
  });
});
