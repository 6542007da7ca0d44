import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { globMatches } from '../mapping/compileMapping.js';
import type { CsvDialect } from '../mapping/mappingSpec.js';
import { inputSpec, type InputSpec } from '../decode/openInput.js';
import { RelatedRowIndex } from '../decode/relatedRowIndex.js';
import { ignoredColumnsNotes, unreadFiles, unreadFilesNote, type CoverageNote } from './coverageNotes.js';
import { registry } from '../resources/registry.js';
import type { EndpointName, Resource } from '../resources/resource.js';
import type { RunInput } from '../run/checkRecords.js';
import { bindFolder, type BoundFolder } from './boundFolder.js';
import { readMappingFile } from './mappingFile.js';

/**
 * A run's inputs bound to their mapping entries, and the on-disk index of the rows their lists join (closed
 * after the run).
 */
export interface MappedInputs {
  inputs: RunInput[];
  /** Every file the mapping reads (its lists' and lookups' files too), for the outputs' checks. */
  reads: string[];
  /** Whether the folder's listing would read a file of this name (backfill DIR --map: an entry's from: matches it). */
  readsName?: (name: string) => boolean;
  close(): void;
}

function inputsOf(
  { compiled, related, recipe, dialect }: BoundFolder,
  specOf: (file: string) => InputSpec,
  extra?: Resource,
): RunInput[] {
  return compiled.entries.map((entry) => {
    const notes: CoverageNote[] = [];
    const dialects = new Map<string, CsvDialect>();
    for (const file of entry.reads.keys()) {
      const csv = dialect(file);
      if (csv) dialects.set(file, csv);
    }
    return {
      resource: registry.get(entry.endpoint) ?? extra!,
      spec: withDialect(specOf(entry.file), dialect(entry.file)),
      map: { mapping: { entry, related, notes, recipe: recipe(entry), dialects }, notes },
    };
  });
}

function withDialect(spec: InputSpec, csv: CsvDialect | undefined): InputSpec {
  return csv && !spec.csv ? { ...spec, csv } : spec;
}

/** The mapping's coverage notes, said by the input read first (a list's or a lookup's file is no input of its own). */
function sayFirst(inputs: readonly RunInput[], notes: readonly CoverageNote[]): void {
  inputs[0]?.map?.notes?.push(...notes);
}

/** `collect ENDPOINT FILE... --map M`: each file through M's entries for the endpoint whose from: matches it. */
export async function mapEndpointInputs(
  mapPath: string,
  files: readonly InputSpec[],
  endpoint: EndpointName,
  /** A resource outside the registry whose entries the mapping may hold (`endpoint: chargeback`). */
  extra?: Resource,
): Promise<MappedInputs> {
  if (files.some((file) => file.name === '-'))
    throw new UsageError(
      '--map reads named CSV files, not standard input',
      'name the export file: collect order export.csv --map mapping.yaml',
    );
  const spec = await readMappingFile(mapPath);
  const folders = new Map<string, InputSpec[]>();
  for (const file of files) {
    const folder = folders.get(dirname(file.name));
    if (folder) folder.push(file);
    else folders.set(dirname(file.name), [file]);
  }
  const indexes: RelatedRowIndex[] = [];
  const inputs: RunInput[] = [];
  const reads: string[] = [];
  const ignored: CoverageNote[] = [];
  try {
    for (const [folder, specs] of folders) {
      const bound = await bindFolder(
        mapPath,
        spec,
        folder,
        specs.map((s) => basename(s.name)),
        { endpoint, everyFileMapped: true, ...(extra ? { extra } : {}) },
      );
      indexes.push(bound.related);
      for (const read of bound.reads) reads.push(read);
      const named = new Map(specs.map((s) => [basename(s.name), s]));
      for (const input of inputsOf(bound, (file) => named.get(file)!, extra)) inputs.push(input);
      ignored.push(...ignoredColumnsNotes(bound.compiled.ignored));
    }
    sayFirst(inputs, ignored);
  } catch (cause) {
    for (const index of indexes) index.close();
    throw cause;
  }
  return { inputs, reads, close: () => indexes.forEach((index) => index.close()) };
}

/**
 * `collect backfill DIR --map M`: the files M's entries name inside DIR, creations first; `strict`: every
 * file of DIR must be read.
 */
export async function mapFolderInputs(mapPath: string, dir: string, strict = false): Promise<MappedInputs> {
  const order = registry.names;
  const spec = await readMappingFile(mapPath);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /\.csv(\.gz)?$/i.test(name)).sort();
  } catch (cause) {
    throw new UsageError(
      `${dir}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'check the path of the folder',
    );
  }
  const bound = await bindFolder(mapPath, spec, dir, names, { everyFileMapped: false });
  const inputs = inputsOf(bound, (file) => bound.spec(file) ?? inputSpec(join(dir, file)));
  inputs.sort((a, b) => order.indexOf(a.resource.name) - order.indexOf(b.resource.name));
  try {
    // A list's or lookup's glob reads every file it matches, not a file named as the glob.
    const read = new Set([
      ...bound.readNames,
      ...bound.compiled.entries.flatMap((entry) => [entry.file, ...entry.reads.keys()]),
    ]);
    const unread = unreadFilesNote(dir, await unreadFiles(dir, read, mapPath), strict);
    sayFirst(inputs, [...unread, ...ignoredColumnsNotes(bound.compiled.ignored)]);
  } catch (cause) {
    bound.related.close();
    throw cause;
  }
  const readsName = (name: string) =>
    /\.csv(\.gz)?$/i.test(name) &&
    spec.entries.some((entry) => entry.from === undefined || globMatches(entry.from, name));
  return { inputs, reads: bound.reads, readsName, close: () => bound.related.close() };
}
