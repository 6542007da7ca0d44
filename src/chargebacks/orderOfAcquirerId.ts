import { CollectError, UsageError } from '../core/errors.js';
import { exitCodes } from '../core/exitCodes.js';
import { openState } from '../state/openState.js';

/**
 * `collect fraud --acquirer-id TX`: the one order whose payment carries that acquirer id in the
 * state; none or several stop the mark (exit 1, unknown-acquirer-id or ambiguous-acquirer-id).
 */
export async function orderOfAcquirerId(
  acquirerId: string,
  stateDir: string | null,
  baseUrl: string | undefined,
): Promise<string> {
  if (stateDir === null)
    throw new UsageError(
      '--acquirer-id needs a state to find the order in',
      'give --base-url (the service whose state holds the orders) or --state, or use --order-id',
    );
  const state = await openState(stateDir, baseUrl, { locking: false, readOnly: true });
  try {
    const orders = [...new Set((await state.acquirerOwners(new Set([acquirerId]))).map((o) => o.orderId))];
    if (orders.length === 1) return orders[0]!;
    throw new CollectError(
      orders.length === 0
        ? `unknown-acquirer-id: no order in the state ${state.location ?? ''} carries acquirer id "` +
            `${acquirerId}"; nothing was sent`
        : `ambiguous-acquirer-id: acquirer id "${acquirerId}" belongs to ${orders.length} orders (${orders
            .slice(0, 5)
            .map((o) => `"${o}"`)
            .join(', ')}); nothing was sent`,
      orders.length === 0 ? 'unknown-acquirer-id' : 'ambiguous-acquirer-id',
      exitCodes.invalid,
      'find the order and mark it with --order-id',
    );
  } finally {
    await state.close();
  }
}
