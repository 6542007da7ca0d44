import { Command } from 'commander';
import * as z from 'zod';
import { UsageError } from '../../core/errors.js';
import { endpointNames, isEndpointName, resources } from '../../resources/registry.js';
import type { CliIo } from '../io.js';

export function resourceNamed(name: string) {
  if (!isEndpointName(name)) throw new UsageError(`unknown endpoint "${name}"`, `use one of: ${endpointNames.join(', ')}`);
  return resources[name];
}

/** `collect schema ENDPOINT`: the JSON Schema of an endpoint's body, from the zod schema. */
export function schemaCommand(io: CliIo): Command {
  return new Command('schema')
    .summary("print the JSON Schema of an endpoint's body")
    .argument('<endpoint>', endpointNames.join('|'))
    .addHelpText('after', '\nExample:\n  $ collect schema delivery > delivery.schema.json')
    .action((name: string) => {
      const resource = resourceNamed(name);
      const schema = z.toJSONSchema(resource.schema, { io: 'input', unrepresentable: 'any' });
      io.stdout.write(`${JSON.stringify({ ...schema, title: `${resource.method} ${resource.path}` }, null, 2)}\n`);
    });
}
