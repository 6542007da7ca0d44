/** The zone `map init` proposes: a zone cannot be read from local times, but a country in the export suggests one. */
import { cellsOf, fold, shown, type SampledFile } from './proposeCells.js';
import { isSkip, roleOf } from './proposeRoles.js';

const BR_STATES = new Set(
  'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' '),
);

export interface ZoneProposal {
  zone: string;
  reason: string;
  /** The currency the zone suggests, for an export with no currency column. */
  currency?: string;
}

/**
 * The zone: the one given; none needed when every time has its offset; São Paulo for Brazilian states; else
 * UTC to set.
 */
export function proposeZone(files: readonly SampledFile[], given?: string): ZoneProposal {
  if (given) return { zone: given, reason: 'as given with --zone' };
  const times = files.flatMap((file) =>
    file.header.flatMap((header, at) => {
      const known = roleOf(header);
      return known && !isSkip(known) && known.how === 'datetime' ? cellsOf(file, at) : [];
    }),
  );
  if (times.every((cell) => /([+-]\d{2}:?\d{2}|Z)$/i.test(cell)))
    return { zone: 'UTC', reason: 'every sampled time carries its offset: the zone reads only local times' };
  for (const file of files)
    for (const [at, header] of file.header.entries()) {
      const cells = cellsOf(file, at);
      if (/(state|province)$/.test(fold(header)) && cells.length > 0 && cells.every((c) => BR_STATES.has(c)))
        return {
          zone: 'America/Sao_Paulo',
          reason:
            `times with no offset, and Brazilian states in ${JSON.stringify(shown(header))} (values ` +
            `like ${shown(cells[0]!)}): confirm it`,
          currency: 'BRL',
        };
    }
  return { zone: 'UTC', reason: "times with no offset: set the export's local time zone (IANA)" };
}
