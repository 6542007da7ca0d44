import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import {
  compileMapping,
  filesJoined,
  globMatches,
  type CompiledEntry,
  type CompiledMapping,
} from '../mapping/compileMapping.js';
import type { MappingProblem, MappingSpec } from '../mapping/mappingSpec.js';
import { parseMapping } from '../mapping/parseMapping.js';
import { readCsvHeader } from '../decode/csvHeader.js';
import { inputSpec, type InputSpec } from '../decode/openInput.js';
import type { MappedRecipe } from '../decode/mappedStage.js';
import { findInFolder, realFolder } from '../decode/folderFile.js';
import { RelatedRowIndex } from '../decode/relatedRowIndex.js';
import { RunScratch } from '../state/runScratch.js';
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
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new UsageError(
      `--map ${path}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'check the path of the mapping file',
    );
  }
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
    const header = spec ? await readCsvHeader(spec) : undefined;
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
}

async function bindFolder(
  mapPath: string,
  spec: MappingSpec,
  folder: string,
  files: readonly string[],
  options: { endpoint?: EndpointName; everyFileMapped: boolean; extra?: Resource },
): Promise<BoundFolder> {
  const names = new Set(files);
  const joined = spec.entries.map((entry) => filesJoined(entry));
  for (const files of joined) for (const file of files) names.add(file);
  // An endpoint command's files were named by the user; a backfill's, like every list's and lookup's, must stay inside the folder.
  const found = await namedFiles(folder, names, options.endpoint ? new Set(files) : new Set());
  const header = (file: string) => found.get(file)?.header;
  const compiled = compileMapping(spec, {
    files,
    header,
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
    headers: [entry.file, ...joined[entry.source]!].map((file) => [file, header(file)]),
  });
  return {
    compiled,
    related,
    recipe,
    spec: (file) => found.get(file)?.spec,
    reads: [...names].map((name) => join(folder, name)),
  };
}

/** One ignored-columns note per list of columns, on its first file: a folder of thousands of monthly files gets one note, not thousands. */
function ignoredNotes(ignored: ReadonlyMap<string, string[]>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const [file, columns] of ignored) {
    const key = JSON.stringify(columns);
    const files = groups.get(key);
    if (files) files.push(file);
    else groups.set(key, [file]);
  }
  const notes = new Map<string, string>();
  for (const [key, files] of groups) {
    const which =
      files.length === 1
        ? files[0]!
        : `${files[0]!} and ${(files.length - 1).toLocaleString('en-US')} more files (to ${files.at(-1)!})`;
    notes.set(
      files[0]!,
      `${which}: no mapping entry reads ${(JSON.parse(key) as string[]).map((c) => JSON.stringify(c)).join(', ')}; never sent`,
    );
  }
  return notes;
}

function inputsOf(
  { compiled, related, recipe }: BoundFolder,
  specOf: (file: string) => InputSpec,
  extra?: Resource,
): RunInput[] {
  const ignored = ignoredNotes(compiled.ignored);
  return compiled.entries.map((entry) => {
    const message = ignored.get(entry.file);
    ignored.delete(entry.file);
    const notes = message ? [{ code: 'ignored-columns', message }] : [];
    return {
      resource: registry.get(entry.endpoint) ?? extra!,
      spec: specOf(entry.file),
      map: { mapping: { entry, related, notes, recipe: recipe(entry) }, notes },
    };
  });
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
    }
  } catch (cause) {
    for (const index of indexes) index.close();
    throw cause;
  }
  return { inputs, reads, close: () => indexes.forEach((index) => index.close()) };
}

/** `collect backfill DIR --map M`: the files M's entries name inside DIR, creations first. */
export async function mapFolderInputs(mapPath: string, dir: string): Promise<MappedInputs> {
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
  const readsName = (name: string) =>
    /\.csv(\.gz)?$/i.test(name) &&
    spec.entries.some((entry) => entry.from === undefined || globMatches(entry.from, name));
  return { inputs, reads: bound.reads, readsName, close: () => bound.related.close() };
}
