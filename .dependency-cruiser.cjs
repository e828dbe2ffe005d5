/** Import rules checked in CI: no cycles, and dependencies point apps → domain → platform. */
const PLATFORM = '^libs/(config|database|crypto|logging|http|views|resource-server|outbound)/';
const DOMAIN = '^libs/(tenants|accounts|apis|clients|tokens|audit|provisioning|invitations|docs|mail|sessions|requests|handovers|workqueues|events|organisations|demo)/';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    { name: 'platform-is-the-floor', severity: 'error', from: { path: PLATFORM }, to: { path: `${DOMAIN}|^libs/schema/|^apps/` } },
    { name: 'domain-knows-no-app', severity: 'error', from: { path: '^libs/' }, to: { path: '^apps/' } },
    { name: 'apps-stand-alone', severity: 'error', from: { path: '^apps/(identity|admin|worker|orders-api)/' }, to: { path: '^apps/', pathNot: '^apps/$1/' } },
    // The sample API stands for an operator's API: it knows Gatehouse only through the guard library.
    { name: 'sample-api-uses-only-the-guard', severity: 'error', from: { path: '^apps/orders-api/' }, to: { path: '^libs/', pathNot: '^libs/resource-server/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$|^dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
