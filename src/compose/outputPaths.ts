import { lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { InputSpec } from '../decode/openInput.js';
import { isRejectsFile, rejectsPaths } from '../send/safeOutput.js';
import { isHtmlReport } from './htmlReportFile.js';
import { isSessionReport } from './sessionReportFile.js';

/** What a run reads besides its inputs' files: mapping and related files, and folders it lists. */
export interface ReadPlaces {
  files?: readonly string[];
  /** A folder the run lists, and which of its names it reads as input. */
  folders?: readonly { dir: string; reads: (name: string) => boolean }[];
}

/** One file as the file system knows it: its device and inode, and its real path. */
interface Identity {
  id: string;
  real: string;
}

function identity(path: string): Identity | undefined {
  try {
    const info = statSync(path);
    return { id: `${info.dev}:${info.ino}`, real: realpathSync(path) };
  } catch {
    return undefined;
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  return 'a device';
}

/** A rejects file an earlier run wrote; one that cannot be read is not known to be one. */
function ours(path: string): boolean {
  try {
    return isRejectsFile(path);
  } catch {
    return false;
  }
}

const sameFile = (a: Identity | undefined, b: Identity | undefined) =>
  a !== undefined && b !== undefined && (a.id === b.id || a.real === b.real);

/**
 * Refuses, before anything is read, the --rejects, --results, --report-html and (the sandbox's) --report
 * paths that would destroy or feed the run's own inputs (the same file, a hard or symbolic link to it, a file
 * an input folder would read), that are a symbolic link or not a regular file, and a --rejects or
 * --report-html or --report file collect did not write: collect never overwrites a user's file by surprise.
 */
export function refuseUnsafeOutputs(
  flags: { rejects?: string; results?: string; reportHtml?: string; report?: string },
  targets: { specs: readonly InputSpec[]; folder?: boolean },
  places: ReadPlaces = {},
): void {
  const inputs = targets.specs;
  const read = [
    ...inputs.map((spec) => spec.name).filter((name) => name !== '-'),
    ...(places.files ?? []),
  ].map((name) => ({ name, id: identity(name) }));
  const folders = (places.folders ?? []).map((folder) => ({ ...folder, id: identity(folder.dir) }));
  const outputs: { flag: string; path: string }[] = [];

  const check = (flag: string, path: string, expect: 'file' | 'folder') => {
    const refuse = (problem: string, hint: string) => new UsageError(`${flag} ${path} ${problem}`, hint);
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info?.isSymbolicLink())
      throw refuse(
        'is a symbolic link; collect never writes through one',
        `remove the link, or name a new ${expect} for ${flag}`,
      );
    if (info && expect === 'file' && !info.isFile())
      throw refuse(`is ${kindOf(info)}, not a regular file`, `name a file for ${flag}`);
    if (info && expect === 'folder' && !info.isDirectory())
      throw refuse(
        'is not a folder; with several inputs (or a mapping with lists) it is the folder of one rejects file per input',
        'name a new folder for --rejects',
      );
    const parent = identity(dirname(resolve(path)));
    const folder = folders.find((other) => sameFile(parent, other.id) && other.reads(basename(path)));
    if (folder)
      throw refuse(
        `is in the input folder ${folder.dir}, where the next run would read it as input`,
        `write it outside ${folder.dir}, or name it so that it is not read (not after an endpoint, ` +
          `not .csv under --map)`,
      );
    if (expect === 'folder') return;
    const self = identity(path);
    const input = read.find((other) => sameFile(self, other.id));
    if (input)
      throw refuse(
        `is one of the inputs (${input.name}); writing it would destroy the records being read`,
        `name a file outside the inputs for ${flag}`,
      );
    const twin = outputs.find((other) =>
      self ? sameFile(self, identity(other.path)) : resolve(other.path) === resolve(path),
    );
    if (twin)
      throw refuse(
        `is also ${twin.flag}; each needs a file of its own`,
        `name different files for ${twin.flag} and ${flag}`,
      );
    if (flag === '--rejects' && info && !ours(path)) {
      throw refuse(
        'exists and is not a rejects file collect wrote (no collect_reason column); collect never overwrites it',
        'name a new file for --rejects, or remove that one if it is yours to lose',
      );
    }
    if (flag === '--report-html' && info && !isHtmlReport(path)) {
      throw refuse(
        'exists and is not an HTML report collect wrote; collect never overwrites it',
        'name a new file for --report-html, or remove that one if it is yours to lose',
      );
    }
    if (flag === '--report' && info && !isSessionReport(path)) {
      throw refuse(
        'exists and is not a report collect wrote; collect never overwrites it',
        'name a new file for --report, or remove that one if it is yours to lose',
      );
    }
    outputs.push({ flag, path });
  };

  if (flags.rejects !== undefined) {
    const folder = targets.folder ?? new Set(inputs.map((spec) => spec.name)).size > 1;
    const paths = rejectsPaths(flags.rejects, inputs, folder);
    if (folder) check('--rejects', flags.rejects, 'folder');
    for (const path of paths.values()) check('--rejects', path, 'file');
  }
  if (flags.results !== undefined) check('--results', flags.results, 'file');
  if (flags.reportHtml !== undefined) check('--report-html', flags.reportHtml, 'file');
  if (flags.report !== undefined) check('--report', flags.report, 'file');
}
