import type * as z from 'zod';
import type { Issue } from '../core/issue.js';

/** What a hint may know besides the record: the time of the run (injected, so the core stays pure). */
export interface ValidationContext {
  now: Date;
}

export type EndpointName = 'order' | 'status' | 'fraud' | 'payment' | 'delivery';

/** One endpoint of the service: its body schema and what `collect` knows about it. */
export interface Resource<Schema extends z.ZodType = z.ZodType> {
  name: EndpointName;
  method: 'POST' | 'PUT';
  /** Appended to the base URL. */
  path: string;
  /** One line for help texts. */
  summary: string;
  schema: Schema;
  /**
   * Checks of one record beyond the schema, on the record as read (unknown fields included):
   * the "(warning)" rules of payloads.md and misnamed fields.
   */
  checks: (record: Record<string, unknown>, context: ValidationContext) => Issue[];
  /** A complete, valid body: the template row and the docs' example. */
  example: z.input<Schema>;
}

export const noChecks = (): Issue[] => [];
