import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import {
  compileMapping,
  filesJoined,
  type CompiledEntry,
  type CompiledMapping,
} from '../mapping/compileMapping.js';
import type { CsvDialect, MappingSpec } from '../mapping/mappingSpec.js';
import { fileDialects } from '../mapping/fileDialects.js';
import { isGlob, joinedFiles } from '../mapping/fromFiles.js';
import { wrongDelimiter } from '../decode/csvDialect.js';
import { readCsvHeader } from '../decode/csvHeader.js';
import { inputSpec, type InputSpec } from '../decode/openInput.js';
import type { MappedRecipe } from '../decode/mappedStage.js';
import { findInFolder, realFolder } from '../decode/folderFile.js';
import { RelatedRowIndex } from '../decode/relatedRowIndex.js';
import { RunScratch } from '../state/runScratch.js';
import { endpointSchemas as schemas } from '../resources/registry.js';
import type { EndpointName, Resource } from '../resources/resource.js';
import { mappingError } from './mappingFile.js';

/** A file a mapping names in a folder: its header and where it is read, or why it may not be. */
interface NamedFile {
  header?: string[];
  spec?: InputSpec;
  refused?: string;
}

/**
 * The files a mapping names in a folder; `given`: named on the command line, read where they are; the others
 * must stay inside it.
 */
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
        'say its dialect in the mapping: csv: { delimiter: ";" } at the top, or on the entry, list ' +
          'or lookup that reads it (mapping.md)',
      );
    found.set(name, { ...(header ? { header } : {}), ...(spec ? { spec } : {}) });
  }
  return found;
}

/** One folder's files through the mapping: compiled, checked, and the related rows indexed. */
export interface BoundFolder {
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

/**
 * Binds a mapping to one folder's files: their headers read, the mapping compiled against them, the rows its
 * lists join indexed.
 */
export async function bindFolder(
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
  // An endpoint command's files were named by the user; a backfill's, like every list's and lookup's, must
  // stay inside the folder.
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
