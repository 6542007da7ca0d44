/**
 * The one-line summary of each command that is not an endpoint, for `collect --help`: kept here,
 * apart from the commands' modules, so the root's help loads none of them.
 */
export const commandSummaries: Readonly<Record<string, string>> = {
  backfill: 'check (and later send) a whole history: orders and all their updates together',
  chargebacks: "mark the orders of an acquirer's chargeback report fraudulent, matched by acquirer id",
  decisions: "load the service's decisions on orders created outside collect into the state",
  relay: "forward an application's outbox to the service as events happen, checked and in flow order",
  rules: 'list the flow rules, their codes and what they catch',
  sandbox: 'run a local, stateful stand-in for the service (faults on demand)',
  schema: "print the JSON Schema of an endpoint's body",
  template: 'print a CSV header and an example row for an endpoint',
  map: 'work with mapping files: `map init` proposes one for an export',
  completion: 'print a shell completion script (bash, zsh or fish)',
};

/** Every command's summary: the endpoints' from their resources, the others' from above. */
export async function summaries(): Promise<Record<string, string>> {
  const { registry } = await import('../resources/registry.js');
  return {
    ...Object.fromEntries(registry.all.map((resource) => [resource.name, resource.summary])),
    ...commandSummaries,
  };
}
