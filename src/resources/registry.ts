import { deliveryResource } from './delivery/index.js';
import { fraudResource } from './fraud/index.js';
import { orderResource } from './order/index.js';
import { paymentResource } from './payment/index.js';
import type { EndpointName, Resource } from './resource.js';
import { statusResource } from './status/index.js';

/** A set of endpoints, looked up by name or by route; creations first. */
export interface Registry {
  readonly all: readonly Resource[];
  readonly names: readonly EndpointName[];
  get(name: string): Resource | undefined;
  byRoute(method: string, path: string): Resource | undefined;
}

export function createRegistry(list: readonly Resource[]): Registry {
  const all = [...list].sort((a, b) => Number(b.role === 'creation') - Number(a.role === 'creation'));
  const byName = new Map(all.map((resource) => [resource.name, resource]));
  const routes = new Map(all.map((resource) => [`${resource.method} ${resource.path}`, resource]));
  return {
    all,
    names: all.map((resource) => resource.name),
    get: (name) => byName.get(name),
    byRoute: (method, path) => routes.get(`${method} ${path}`),
  };
}

/** Every endpoint of the service; adding one is a folder and a line here. */
export const resources = {
  order: orderResource as Resource,
  status: statusResource as Resource,
  fraud: fraudResource as Resource,
  payment: paymentResource as Resource,
  delivery: deliveryResource as Resource,
};

export const registry = createRegistry(Object.values(resources));

export const endpointNames = registry.names;

/** Each endpoint's schema by name: what a mapping's targets are checked against. */
export const endpointSchemas = Object.fromEntries(
  registry.all.map((resource) => [resource.name, resource.schema]),
) as Record<EndpointName, Resource['schema']>;

export function isEndpointName(name: string): boolean {
  return registry.get(name) !== undefined;
}
