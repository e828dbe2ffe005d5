import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The code block that follows `<!-- snippet: <name> -->` in a document of the repository: what a
 * reader copies is what the test runs.
 */
export function docSnippet(doc: string, name: string): string {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const marker = `<!-- snippet: ${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${doc} has no snippet "${name}"`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at + marker.length));
  if (!block) throw new Error(`${doc}: no code block after the snippet "${name}"`);
  return block[1]!;
}

/**
 * Writes a document's snippet to a file under `test-artifacts/snippets/` (inside the repository, so
 * a Node snippet resolves its packages from the repository's node_modules) and returns its path.
 */
export function snippetFile(doc: string, name: string, extension: string): string {
  const dir = join(ROOT, 'test-artifacts', 'snippets');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.${extension}`);
  writeFileSync(file, docSnippet(doc, name));
  return file;
}
