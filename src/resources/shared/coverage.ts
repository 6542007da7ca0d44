/** A field the service's models use: where it is (`user.document`, `payments[].acquirer_id`). */
export interface CoverageField {
  /** As the report shows it: the field's path, lists as `[]`. */
  path: string;
  /** What it is, in a few words. */
  label: string;
}

export const field = (path: string, label: string): CoverageField => ({ path, label });

/** A field of each element of a list: present when one element carries it. */
export const inList = (list: string, path: string, label: string): CoverageField => ({
  path: `${list}[].${path}`,
  label,
});
