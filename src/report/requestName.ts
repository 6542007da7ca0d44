/** What names a request of a sandbox session in its report: its place in the session, method, path and arrival time. */
export interface RequestName {
  seq: number;
  method: string;
  path: string;
  at: string;
}

/** The "file" of a request's findings, as reports show it: `request #N METHOD PATH at TIME`. */
export const requestFile = (seq: number, method: string, path: string, at: Date): string =>
  `request #${seq} ${method} ${path} at ${at.toISOString()}`;

/**
 * A request's parts, read back from its file name (the time is the last word, which requestFile writes);
 * undefined for any other name.
 */
export function requestOf(file: string): RequestName | undefined {
  const match = /^request #(\d+) (\S+) (.*) at (\S+)$/s.exec(file);
  if (!match) return undefined;
  return { seq: Number(match[1]), method: match[2]!, path: match[3]!, at: match[4]! };
}
