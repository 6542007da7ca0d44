/**
 * The lines `map init` proposes for one column of a known role: its converter read from the sample cells,
 * with its reason.
 */
import { because, guessDatetime, guessNumber, quote } from './proposeCells.js';
import type { Role } from './proposeRoles.js';

/** One proposed field: `target: source   # reason`. */
export interface Line {
  target: string;
  source: string;
  reason: string;
}

/** A column as a proposal sees it: its header and its non-empty sample cells. */
export interface Column {
  header: string;
  cells: readonly string[];
}

/** A column of a known role. */
export interface Known extends Column {
  role: Role;
}

/** The source text of a column with converters (`{ column: X, datetime: iso }`), or a lookup's. */
export type SourceOf = (converters?: string) => string;

export const columnSource =
  (header: string): SourceOf =>
  (converters) =>
    converters ? `{ column: ${quote(header)}, ${converters} }` : quote(header);

/** "Rua Augusta, 1500", "Av. Paulista 1578", "Rua das Flores, 45B": the street, then its number. */
export const STREET = String.raw`^(?<name>.+?),?\s+(?<number>\d+[A-Za-z]?)\s*$`;

/** A datetime column's source: the sample's exact pattern (`iso` keeps each cell's offset). */
export function datetimeLine(target: string, column: Column, source: SourceOf): Line {
  const pattern = guessDatetime(column.cells);
  return {
    target,
    source: source(`datetime: ${quote(pattern ?? 'yyyy-MM-dd HH:mm:ss')}`),
    reason: pattern
      ? because(column.header, column.cells)
      : `no pattern read every sample cell (${because(column.header, column.cells)}): fix it`,
  };
}

/**
 * The lines of a role (not status or delivery, which are entries of their own): a phone as its
 * two parts, a street as its name and number, money with its number style.
 */
export function roleLines(role: Role, column: Column, source: SourceOf, country?: string): Line[] {
  const reason = because(column.header, column.cells);
  const line = (target: string, converters?: string): Line => ({
    target,
    source: source(converters),
    reason,
  });
  switch (role.how) {
    case 'datetime':
      return [datetimeLine(role.target, column, source)];
    case 'money': {
      const style =
        guessNumber(column.cells) ??
        (column.cells.some((cell) => cell.includes('.')) ? 'decimal-point' : undefined);
      const converters = style ? `number: ${style}` : undefined;
      return [line(role.target, converters), ...(role.also ? [line(role.also, converters)] : [])];
    }
    case 'split':
      return [line(role.target, 'split: ","')];
    case 'phone': {
      const where = country ? `, country: ${country}` : '';
      return [
        line(`${role.target}phone_country_code`, `phone: country-code${where}`),
        line(`${role.target}phone_number`, `phone: national${where}`),
      ];
    }
    case 'street': {
      const match = `match: '${STREET}'`;
      return [
        line(`${role.target}street_name`, `${match}, group: name`),
        line(`${role.target}street_number`, `${match}, group: number`),
      ];
    }
    case 'status':
    case 'delivery':
      return role.also ? [line(role.also)] : [];
    default:
      return [line(role.target), ...(role.also ? [line(role.also)] : [])];
  }
}
