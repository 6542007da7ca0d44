import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import {
  compileMapping,
  filesJoined,
  globMatches,
  type CompiledEntry,
  type CompiledMapping,
} from '../mapping/compileMapping.js';
import type { CsvDialect, MappingProblem, MappingSpec } from '../mapping/mappingSpec.js';
import { fileDialects } from '../mapping/fileDialects.js';
import { isGlob, joinedFiles } from '../mapping/fromFiles.js';
import { wrongDelimiter } from '../decode/csvDialect.js';
import { parseMapping } from '../mapping/parseMapping.js';
import { MIB, readConfigFile } from '../decode/configFile.js';
import { readCsvHeader } from '../decode/csvHeader.js';
import { inputSpec, type InputSpec } from '../decode/openInput.js';
import type { MappedRecipe } from '../decode/mappedStage.js';
import { findInFolder, realFolder } from '../decode/folderFile.js';
import { RelatedRowIndex } from '../decode/relatedRowIndex.js';
import { RunScratch } from '../state/runScratch.js';
import { ignoredColumnsNotes, unreadFiles, unreadFilesNote, type CoverageNote } from './coverageNotes.js';
import { endpointSchemas as schemas, registry } from '../resources/registry.js';
import type { EndpointName, Resource } from '../resources/resource.js';
import type { RunInput } from '../run/checkRecords.js';

/** A run's inputs bound to their mapping entries, and the on-disk index of the rows their lists join (closed after the run). */
export interface MappedInputs {
  inputs: RunInput[];
  /** Every file the mapping reads (its lists' and lookups' files too), for the outputs' checks. */
  reads: string[];
  /** Whether the folder's listing would read a file of this name (backfill DIR --map: an entry's from: matches it). */
  readsName?: (name: string) => boolean;
  close(): void;
}

/** Reads and parses `--map FILE` (YAML or JSON); its mistakes are a usage error naming their lines. */
export async function readMappingFile(path: string): Promise<MappingSpec> {
  const text = readConfigFile(path, {
    option: '--map',
    maxBytes: MIB,
    limit: '1 MiB',
    holds: 'a mapping names columns and converters',
    tooLargeHint:
      'a long values: table belongs in a CSV read with lookup: { from: FILE, key: KEY, column: COLUMN }',
    pathHint: 'check the path of the mapping file',
    regularHint: 'write the mapping to a file and name it (collect map proposes one)',
  }).toString('utf8');
  const { spec, problems } = parseMapping(text);
  if (!spec || problems.length > 0) throw mappingError(path, problems);
  return spec;
}

function mappingError(path: string, problems: readonly MappingProblem[]): UsageError {
  const lines = problems
    .slice(0, 20)
    .map(
      (problem) =>
        `  ${path}:${problem.line}: ${problem.message}${problem.hint ? `\n    fix: ${problem.hint}` : ''}`,
    );
  const more = problems.length > 20 ? [`  ... and ${problems.length - 20} more`] : [];
  return new UsageError(
    `the mapping ${path} has ${problems.length === 1 ? 'a mistake' : `${problems.length} mistakes`}; nothing was read:\n${[...lines, ...more].join('\n')}`,
    'fix the mapping file (mapping.md), then run again',
  );
}

/** A file a mapping names in a folder: its header and where it is read, or why it may not be. */
interface NamedFile {
  header?: string[];
  spec?: InputSpec;
  refused?: string;
}

/** The files a mapping names in a folder; `given`: named on the command line, read where they are; the others must stay inside it. */
async function namedFiles(
  folder: string,
  names: Iterable<string>,
  given: ReadonlySet<string>,
  dialects: ReadonlyMap<string, CsvDialect>,
): Promise<Map<string, NamedFile>> {
  const real = await realFolder(folder);
  const found = new Map<string, NamedFile>();
  for (const name of names) {
    const shown = join(folder, name);
    let spec: InputSpec | undefined;
    if (given.has(name)) {
      if (
        await stat(shown).then(
          (info) => info.isFile(),
          () => false,
        )
      )
        spec = inputSpec(shown, 'csv');
    } else {
      const file = await findInFolder(folder, real, name);
      if (file.kind === 'refused') {
        found.set(name, { refused: file.reason });
        continue;
      }
      if (file.kind === 'file') spec = { ...inputSpec(shown, 'csv'), path: file.path };
    }
    const csv = dialects.get(name);
    if (spec && csv) spec = { ...spec, csv };
    const header = spec ? await readCsvHeader(spec) : undefined;
    // Only a file the mapping reads must be in its dialect: one it does not read is an unread-files note.
    const wrong = header && dialects.has(name) ? wrongDelimiter(header, csv) : undefined;
    if (wrong !== undefined)
      throw new UsageError(
        `${shown}: ${wrong}; nothing was read`,
        'say its dialect in the mapping: csv: { delimiter: ";" } at the top, or on the entry, list or lookup that reads it (mapping.md)',
      );
    found.set(name, { ...(header ? { header } : {}), ...(spec ? { spec } : {}) });
  }
  return found;
}

/** One folder's files through the mapping: compiled, checked, and the related rows indexed. */
interface BoundFolder {
  compiled: CompiledMapping;
  related: RelatedRowIndex;
  /** The paths of the files it reads. */
  reads: string[];
  /** How a piece worker compiles a compiled entry again (mappedStage.ts). */
  recipe(entry: CompiledEntry): MappedRecipe;
  /** Where a file of the folder is read (its real path); undefined when it is not there. */
  spec(file: string): InputSpec | undefined;
  /** A file's dialect, when the mapping gives it one. */
  dialect(file: string): CsvDialect | undefined;
  /** The names of the files an entry, list or lookup reads (globs and self resolved). */
  readNames: ReadonlySet<string>;
}

/** The folder's CSV files, which the globs of lists and lookups match (read only when one has a glob). */
async function folderListing(folder: string, files: readonly string[], spec: MappingSpec): Promise<string[]> {
  const globs = spec.entries.some((entry) => [...filesJoined(entry)].some(isGlob));
  if (!globs) return [...files];
  const listed = await readdir(folder).catch(() => [] as string[]);
  return [...new Set([...files, ...listed.filter((name) => /\.csv(\.gz)?$/i.test(name))])].sort();
}

async function bindFolder(
  mapPath: string,
  spec: MappingSpec,
  folder: string,
  files: readonly string[],
  options: { endpoint?: EndpointName; everyFileMapped: boolean; extra?: Resource },
): Promise<BoundFolder> {
  const listing = await folderListing(folder, files, spec);
  const dialects = fileDialects(spec, files, listing);
  if (dialects.problems.length > 0) throw mappingError(mapPath, dialects.problems);
  // Every file the entries read and join (self and globs resolved), with its dialect.
  const names = new Set([...files, ...dialects.dialects.keys()]);
  // An endpoint command's files were named by the user; a backfill's, like every list's and lookup's, must stay inside the folder.
  const found = await namedFiles(
    folder,
    names,
    options.endpoint ? new Set(files) : new Set(),
    dialects.dialects,
  );
  const header = (file: string) => found.get(file)?.header;
  const compiled = compileMapping(spec, {
    files,
    header,
    listing,
    refused: (file) => found.get(file)?.refused,
    schemas: options.extra ? { ...schemas, [options.extra.name]: options.extra.schema } : schemas,
    everyFileMapped: options.everyFileMapped,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  });
  if (compiled.problems.length > 0) throw mappingError(mapPath, compiled.problems);
  const related = await RelatedRowIndex.build(
    RunScratch.inTemp(),
    (file) => found.get(file)?.spec ?? inputSpec(join(folder, file), 'csv'),
    compiled.indexes,
    header,
  );
  // Only the headers this entry reads: a recipe per file that held every header would make a folder of files quadratic.
  const recipe = (entry: CompiledEntry): MappedRecipe => ({
    spec,
    entry: entry.source,
    file: entry.file,
    related: related.file,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    headers: [entry.file, ...joinedFiles(spec.entries[entry.source]!, entry.file, listing)].map((file) => [
      file,
      header(file),
    ]),
  });
  return {
    compiled,
    related,
    recipe,
    spec: (file) => found.get(file)?.spec,
    dialect: (file) => dialects.dialects.get(file),
    readNames: new Set(dialects.dialects.keys()),
    reads: [...names].map((name) => join(folder, name)),
  };
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

/** `collect backfill DIR --map M`: the files M's entries name inside DIR, creations first; `strict`: every file of DIR must be read. */
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
