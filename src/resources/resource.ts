import type { CoverageField } from './shared/coverage.js';
import type * as z from 'zod';
import type { Issue } from '../core/issue.js';

/** What a hint may know besides the record: the time of the run (injected, so the core stays pure). */
export interface ValidationContext {
  now: Date;
}

/** An endpoint's name, as the registry holds it (`order`, `status`, ...). */
export type EndpointName = string;

/**
 * What the flow rules and the state need to know of one record, extracted once by its resource.
 * `kind` is the endpoint's name; each resource adds its own fields (see its `facts.ts`).
 */
export interface Facts {
  kind: EndpointName;
  orderId: string;
  /** The id a results line names the record by: its own id (payment, delivery) or its order's. */
  key: string;
  /**
   * For a creation: the keys of update records it owns (its delivery ids), so an update naming another order
   * is caught.
   */
  claims?: readonly string[];
}

/** A card payment's last four digits, value in cents and the UTC date of its order's creation. */
export type CardKey = readonly [lastFour: string, cents: string, saleDate: string];

/**
 * What the state can remember of a record, in the state's own words. Each resource says which
 * of these its records change (`remember`); the journal of what was sent is kept for every record.
 */
export interface StateWrites {
  createOrder(order: { orderId: string; hash: string; evaluate: boolean; status: string | null }): void;
  setDecision(orderId: string, decision: string): void;
  /** `card`: a card payment's key for chargebacks (source-files.md A.0.7), kept on its payment row. */
  addPayment(orderId: string, paymentId: string, acquirerId: string | null, card?: CardKey): void;
  setUpdatedAcquirer(orderId: string, paymentId: string, acquirerId: string): void;
  setLastStatus(orderId: string, status: string): void;
  addFraudMark(orderId: string, signalType: string): void;
  addDelivery(orderId: string, deliveryId: string): void;
  /** A row of a table a resource declares (`Resource.tables`), replacing the row of the same key. */
  addRow(table: RememberedTable, orderId: string, values: readonly (string | null)[]): void;
}

/**
 * A table of what the state remembers, declared as data by the resource whose records fill it:
 * every backend derives its DDL, its migration (a missing table or column is added), its writes
 * and its reads from this. Its rows are keyed by their order (`order_id`, first) and the first
 * `key` of `columns`; all columns are text. A later run finds them in PriorOrder.rows[name].
 */
export interface RememberedTable<F extends Facts = Facts> {
  /** Lowercase letters, digits and _ (PostgreSQL prefixes it with collect_). */
  name: string;
  columns: readonly string[];
  key: number;
  /** The rows one record's facts put in the table: one value per column. */
  rows(facts: F): readonly (readonly (string | null)[])[];
}

/** A flag of an endpoint's own by-hand form (`collect fraud --order-id ... --type ...`). */
export interface ByHandOption {
  /** Commander's flag text, e.g. `--type <type>`. */
  flags: string;
  description: string;
  choices?: readonly string[];
}

/** One record typed on the command line instead of read from a file. */
export interface ByHand {
  /** The flag whose presence selects the by-hand form (commander's camel-cased name, e.g. `orderId`). */
  trigger: string;
  /** What the record is called in a question to the user (`fraud mark`). */
  noun: string;
  options: readonly ByHandOption[];
  /** Help text: the form's usage line after the command's name (`--order-id <id> --type <type> ...`). */
  usage: string;
  /** Help text: an example of the form. */
  example: string;
  /** The record the flags describe; throws a UsageError for a missing flag. */
  record(flags: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** How the sandbox answers a valid update for an order it holds, beyond storing it. */
export type SandboxCheck = (
  order: Record<string, unknown>,
  body: Record<string, unknown>,
) => { status: number; message: string } | undefined;

/** One endpoint of the service: everything `collect` knows about it, in one place. */
export interface Resource<Schema extends z.ZodType = z.ZodType, F extends Facts = Facts> {
  name: EndpointName;
  method: 'POST' | 'PUT';
  /** Appended to the base URL. */
  path: string;
  /** One line for help texts. */
  summary: string;
  /**
   * A creation starts an order's life: the order's other calls wait for it; every other endpoint is an update
   * of an order.
   */
  role: 'creation' | 'update';
  /** The field that names the record's order (`id` of a creation or status change, `order_id` of the others). */
  orderField: string;
  /** The service's answer to a successful call (the sandbox's stand-in). */
  accepted: { status: number; message: string };
  schema: Schema;
  /**
   * Checks of one record beyond the schema, on the record as read (unknown fields included):
   * the "(warning)" rules of docs/payloads.md and misnamed fields.
   */
  checks: (record: Record<string, unknown>, context: ValidationContext) => Issue[];
  /** A complete, valid body: the template row and the docs' example. */
  example: z.input<Schema>;
  /**
   * The flow facts of a record, or null when it lacks the ids the rules key on (the schema
   * already reports that). Records with other schema errors still take part, so one bad field
   * does not cascade into "unknown order" on every later update.
   */
  facts(record: Record<string, unknown>): F | null;
  /** What the state keeps of a record the service accepted (or a dry run validated). */
  remember(facts: F, writes: StateWrites, hash: string, decision?: string): void;
  /** The fields whose presence the fraud models depend on, for the report's field coverage; at most 31 (a bit mask). */
  coverage?: readonly CoverageField[];
  /** Tables of its own that the state keeps (beyond `remember`'s writes), filled from its records' facts. */
  tables?: readonly RememberedTable<F>[];
  /** Its records' keys are claimed by creations (a delivery id belongs to one order): the rules see the claimants. */
  claimedByCreation?: true;
  /** Checked by the sandbox once the order exists (a payment update for a payment the order lacks: 404). */
  sandboxCheck?: SandboxCheck;
  /** A by-hand form of one record, for this endpoint's command. */
  byHand?: ByHand;
}

export const noChecks = (): Issue[] => [];

/** A non-empty string field of a record, or undefined. */
export const textField = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
