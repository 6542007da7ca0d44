import type { ExitCode } from '../core/exitCodes.js';
import type { InputFormat } from '../decode/formatName.js';
import { inputSpec } from '../decode/openInput.js';
import type { Resource } from '../resources/resource.js';
import type { CliIo } from '../terminal/io.js';
import { csvDialectOf, withCsvDialect, type CsvDialectFlags } from './csvDialectFlags.js';
import { runWithFlags, type RunFlags } from './runWithFlags.js';
import { withTransform } from './transformModule.js';

/** The flags of `collect ENDPOINT`, as parsed (cli/commands/endpointCommand.ts). */
export interface EndpointFlags extends RunFlags, CsvDialectFlags {
  inputFormat?: InputFormat;
  map?: string;
  [flag: string]: unknown;
}

/**
 * `collect ENDPOINT FILE...`: the files (or standard input) as the endpoint's inputs, read in the
 * flags' CSV dialect or through `--map`, each record through `--transform`, then the run.
 */
export async function endpointWithFlags(
  resource: Resource,
  files: string[],
  flags: EndpointFlags,
  io: CliIo,
): Promise<ExitCode> {
  const dialect = csvDialectOf(flags);
  const inputs = (files.length > 0 ? files : ['-']).map((name) => ({
    resource,
    spec: inputSpec(name, flags.inputFormat),
  }));
  if (flags.map === undefined) {
    const read = await withCsvDialect(inputs, dialect);
    return runWithFlags(await withTransform(read, flags.transform, flags.transformTimeout), flags, io);
  }
  // The mapping's code (yaml, luxon) is loaded only with --map.
  const { mapEndpointInputs } = await import('./columnMap.js');
  const mapped = await mapEndpointInputs(
    flags.map,
    inputs.map((input) => input.spec),
    resource.name,
  );
  try {
    return await runWithFlags(
      await withTransform(mapped.inputs, flags.transform, flags.transformTimeout),
      flags,
      io,
      { reads: { files: [flags.map, ...mapped.reads] } },
    );
  } finally {
    mapped.close();
  }
}
