import { deliveryResource } from './delivery/index.js';
import { fraudResource } from './fraud/index.js';
import { orderResource } from './order/index.js';
import { paymentResource } from './payment/index.js';
import type { EndpointName, Resource } from './resource.js';
import { statusResource } from './status/index.js';

/** Every endpoint of the service; adding one is a folder and a line here. */
export const resources: Record<EndpointName, Resource> = {
  order: orderResource,
  status: statusResource,
  fraud: fraudResource,
  payment: paymentResource,
  delivery: deliveryResource,
} as Record<EndpointName, Resource>;

export const endpointNames = Object.keys(resources) as EndpointName[];

export function isEndpointName(name: string): name is EndpointName {
  return Object.hasOwn(resources, name);
}
