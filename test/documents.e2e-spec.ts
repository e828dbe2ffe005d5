import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(REPO, file), 'utf8');
const guides = readdirSync(join(REPO, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const documents = ['README.md', 'BENCHMARKS.md', 'deploy/README.md', ...guides];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Relative links of a Markdown file (targets outside the repository and page anchors excluded). */
function linksOf(file: string): Array<{ target: string; anchor: string | undefined }> {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z]+:/.test(href) && !href.startsWith('#'))
    .map((href) => {
      const [path, anchor] = href.split('#');
      return { target: relative(REPO, resolve(dirname(join(REPO, file)), path!)), anchor };
    });
}

/** The README as the front door, the guides under docs/ behind it, their links intact. */
describe('documents', () => {
  it('every relative link names a file that exists, and a heading of it when it names one', () => {
    for (const file of documents) {
      for (const { target, anchor } of linksOf(file)) {
        expect(existsSync(join(REPO, target)), `${file} → ${target}`).toBe(true);
        if (anchor && target.endsWith('.md')) expect([...anchorsOf(target)], `${file} → ${target}#${anchor}`).toContain(anchor);
      }
    }
  });

  it('every guide says first whom it is for, and is reachable from the README', () => {
    const fromReadme = new Set(linksOf('README.md').map((link) => link.target));
    const fromGuides = new Set(guides.flatMap((guide) => linksOf(guide).filter((l) => l.target !== guide).map((l) => l.target)));
    for (const guide of guides) {
      const firstParagraph = read(guide).split('\n\n')[1] ?? '';
      expect(firstParagraph, guide).toMatch(/^For /);
      expect(fromReadme.has(guide) || fromGuides.has(guide), `${guide} is linked from the README or another guide`).toBe(true);
    }
  });

  it('the README stays a front door and BENCHMARKS.md a page of figures', () => {
    const lines = (file: string) => read(file).trimEnd().split('\n').length;
    expect(lines('README.md')).toBeLessThanOrEqual(200);
    expect(lines('BENCHMARKS.md')).toBeLessThanOrEqual(250);
  });

  it('the client-library recipes carry the settings their tested copies run with', () => {
    const recipes = read('docs/client-developers.md');
    const tested = [
      { file: 'test/snippets/azure-identity-certificate.mjs', settings: ['ClientCertificateCredential', 'disableInstanceDiscovery: true', 'authorityHost'] },
      { file: 'test/snippets/msal_python.py', settings: ['validate_authority=False', 'instance_discovery=False', 'acquire_token_for_client'] },
    ];
    for (const { file, settings } of tested) {
      expect(recipes).toContain(file);
      for (const setting of settings) {
        expect(read(file), `${file}: ${setting}`).toContain(setting);
        expect(recipes, `docs/client-developers.md: ${setting}`).toContain(setting);
      }
    }
  });
});
