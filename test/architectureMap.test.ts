/**
 * docs/architecture.md is a map a new maintainer can read: at most 300 lines, every folder under src/
 * named in its map of folders, and every file it names present in the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const MAX_LINES = 300;

/** Every folder under `dir`, at any depth, as `src/a/b/`. */
function foldersUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = `${dir}/${entry.name}`;
      return [`${folder}/`, ...foldersUnder(folder)];
    });
}

/** Every file's path under `dir`, relative to the repository, skipping what is built or installed. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The text of the section under the heading `## title`, up to the next `## `. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('docs/architecture.md', () => {
  it(`is at most ${MAX_LINES} lines`, () => {
    expect(doc.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  it('names every folder under src/ in its map of folders', () => {
    const map = section('Map of the folders');
    const missing = foldersUnder('src').filter((folder) => !map.includes(`\`${folder}\``));
    expect(missing).toEqual([]);
  });

  it('names only files that exist', () => {
    const known = ['src', 'test', 'bench', 'scripts', 'docs', 'presets'].flatMap(filesUnder);
    // A name is a path from the repository's root, or the end of one (`decode/csvRows.ts`, `csvRows.ts`).
    const exists = (name: string) =>
      existsSync(join(root, name)) || known.some((path) => path === name || path.endsWith(`/${name}`));
    const named = [...doc.matchAll(/`([\w./-]+\.(?:ts|js|cjs|md|yaml))`/g)].map(([, name]) => name!);
    const absent = named.filter((name) => !exists(name));
    expect(absent).toEqual([]);
  });
});
