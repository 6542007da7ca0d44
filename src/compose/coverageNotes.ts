import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';

/** A note of the run's report, said once. */
export interface CoverageNote {
  code: string;
  message: string;
}

/** Names shown in one note before "and N more": a folder of thousands of files gets one readable line. */
const SHOWN = 10;

const listed = (names: readonly string[]): string => {
  const shown = names.slice(0, SHOWN).map((name) => JSON.stringify(name));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more.toLocaleString('en-US')} more` : shown.join(', ');
};

/**
 * One ignored-columns note per list of columns, naming its files: a folder of thousands of
 * monthly files with the same header gets one note, not thousands.
 */
export function ignoredColumnsNotes(ignored: ReadonlyMap<string, readonly string[]>): CoverageNote[] {
  const groups = new Map<string, string[]>();
  for (const [file, columns] of ignored) {
    const key = JSON.stringify(columns);
    const files = groups.get(key);
    if (files) files.push(file);
    else groups.set(key, [file]);
  }
  return [...groups].map(([key, files]) => {
    const which =
      files.length === 1
        ? files[0]!
        : `${files[0]!} and ${(files.length - 1).toLocaleString('en-US')} more files (to ${files.at(-1)!})`;
    const columns = (JSON.parse(key) as string[]).map((c) => JSON.stringify(c)).join(', ');
    return {
      code: 'ignored-columns',
      message: `${which}: nothing in the mapping reads ${columns}; never sent`,
    };
  });
}

/**
 * The files of a backfill folder that nothing in the mapping reads (no entry, list or lookup):
 * regular files, but for hidden ones and the mapping file itself. Subfolders are not read.
 */
export async function unreadFiles(
  dir: string,
  reads: ReadonlySet<string>,
  mapPath: string,
): Promise<string[]> {
  const mapping = resolve(mapPath);
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith('.') && !reads.has(name) && resolve(join(dir, name)) !== mapping)
    .sort();
}

const UNREAD_HINT =
  'add an entry, list or lookup whose from: names it (a glob such as "orders_*.csv" reads every ' +
  'monthly file), or move it out of the folder';

/** The unread-files note; with `--strict`, a usage error before any record is read. */
export function unreadFilesNote(dir: string, unread: readonly string[], strict: boolean): CoverageNote[] {
  if (unread.length === 0) return [];
  const what =
    `nothing in the mapping reads ` +
    `${unread.length === 1 ? 'the file' : `${unread.length.toLocaleString('en-US')} files`} ` +
    `${listed(unread)} of ${dir}`;
  if (strict)
    throw new UsageError(`${what}; with --strict a backfill reads every file of its folder`, UNREAD_HINT);
  return [{ code: 'unread-files', message: `${what}; skipped, never sent (${UNREAD_HINT})` }];
}
