import { Command } from 'commander';
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import { exitCodes, exitCodesHelp } from '../../core/exitCodes.js';
import { endpointNames, registry } from '../../resources/registry.js';
import type { Resource } from '../../resources/resource.js';
import type { CliIo } from '../../terminal/io.js';

/** The endpoint a user named, or a usage error with the names there are. */
export function resourceNamed(name: string): Resource {
  const resource = registry.get(name);
  if (!resource)
    throw new UsageError(`unknown endpoint "${name}"`, `use one of: ${endpointNames.join(', ')}`);
  return resource;
}

/** What `collect schema` and `collect template` end with. */
export const printExits = [
  [exitCodes.ok, 'printed'],
  [exitCodes.usage, 'usage error: an unknown endpoint or a bad flag'],
] as const;

/** `collect schema ENDPOINT`: the JSON Schema of an endpoint's body, from the zod schema. */
export function schemaCommand(io: CliIo): Command {
  return new Command('schema')
    .argument('<endpoint>', endpointNames.join('|'))
    .addHelpText(
      'after',
      `\nExample:\n  $ collect schema delivery > delivery.schema.json\n\n${exitCodesHelp(printExits)}`,
    )
    .action((name: string) => {
      const resource = resourceNamed(name);
      const schema = z.toJSONSchema(resource.schema, { io: 'input', unrepresentable: 'any' });
      io.stdout.write(
        `${JSON.stringify({ ...schema, title: `${resource.method} ${resource.path}` }, null, 2)}\n`,
      );
    });
}
