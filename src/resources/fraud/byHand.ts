import { UsageError } from '../../core/errors.js';
import type { ByHand } from '../resource.js';
import { fraudSignalType } from './signalTypes.js';

/** `collect fraud --order-id ID --type TYPE [--comment TEXT]`: one fraud mark typed by an analyst. */
export const fraudByHand: ByHand = {
  trigger: 'orderId',
  noun: 'fraud mark',
  options: [
    { flags: '--order-id <id>', description: 'mark this one order fraudulent (instead of reading files)' },
    {
      flags: '--acquirer-id <id>',
      description:
        "instead of --order-id: the order whose payment carries this acquirer's transaction id in the state",
    },
    {
      flags: '--type <type>',
      description: 'the fraud signal type, with --order-id',
      choices: fraudSignalType.options,
    },
    {
      flags: '--comment <text>',
      description: 'fraud_comment, with --order-id (required for third_party_antifraud)',
    },
  ],
  usage: '--order-id <id> --type <type> [--comment <text>]',
  example: '$ collect fraud --order-id ORD-1001 --type chargeback --comment "chargeback 2024-04-02"',
  record: (flags) => {
    if (flags.type === undefined)
      throw new UsageError(
        '--type is required with --order-id',
        `one of: ${fraudSignalType.options.join(', ')}`,
      );
    return {
      order_id: flags.orderId,
      fraud_signal_type: flags.type,
      ...(flags.comment === undefined ? {} : { fraud_comment: flags.comment }),
    };
  },
};
