/** Import rules checked in CI: no cycles, and dependencies point apps → domain → platform. */
const PLATFORM = '^libs/(config|database|crypto|logging|http|views)/';
const DOMAIN = '^libs/(tenants|accounts|apis|clients|tokens|audit|provisioning|invitations|docs|mail|sessions|workqueues)/';

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    { name: 'platform-is-the-floor', severity: 'error', from: { path: PLATFORM }, to: { path: `${DOMAIN}|^libs/schema/|^apps/` } },
    { name: 'domain-knows-no-app', severity: 'error', from: { path: '^libs/' }, to: { path: '^apps/' } },
    { name: 'apps-stand-alone', severity: 'error', from: { path: '^apps/(identity|admin|worker)/' }, to: { path: '^apps/', pathNot: '^apps/$1/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$|^dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
