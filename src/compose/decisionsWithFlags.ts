import { UsageError } from '../core/errors.js';
import type { InputFormat } from '../decode/formatName.js';
import { inputSpec } from '../decode/openInput.js';
import { loadDecisions, type DecisionsLoaded } from '../decisions/loadDecisions.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import { openState } from '../state/openState.js';
import type { CliIo } from '../terminal/io.js';

/** The flags of `collect decisions`, as parsed (cli/commands/decisionsCommand.ts). */
export interface DecisionsFlags {
  baseUrl?: string;
  state?: string;
  inputFormat?: InputFormat;
}

/** What `collect decisions` did, and where: the service whose state got them, and that state. */
export interface DecisionsOutcome extends DecisionsLoaded {
  baseUrl: string;
  location: string;
}

/**
 * `collect decisions FILE...`: the service (--base-url, else COLLECT_BASE_URL), the files (CSV or
 * NDJSON), the state (--state, else COLLECT_STATE, else .collect), and the load, made durable.
 */
export async function decisionsWithFlags(
  files: string[],
  flags: DecisionsFlags,
  io: CliIo,
): Promise<DecisionsOutcome> {
  const baseUrl = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  if (baseUrl === undefined)
    throw new UsageError(
      'no service: give --base-url URL or set COLLECT_BASE_URL',
      'the decisions go into the state of the service that made them',
    );
  parseBaseUrl(baseUrl);
  const specs = files.map((name) => inputSpec(name, flags.inputFormat));
  const json = specs.find((spec) => spec.format === 'json');
  if (json)
    throw new UsageError(
      `${json.name}: decisions are read from CSV or NDJSON`,
      'name the file .csv or .ndjson, or add --input-format ndjson',
    );
  const where = flags.state ?? (io.env.COLLECT_STATE || '.collect');
  const store = await openState(where, baseUrl, { locking: false });
  let loaded: DecisionsLoaded;
  try {
    loaded = await loadDecisions(specs, io.stdin, store, io.now);
  } finally {
    try {
      await store.durable();
    } finally {
      await store.close();
    }
  }
  return { ...loaded, baseUrl, location: store.location ?? where };
}
