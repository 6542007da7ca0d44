import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';

/**
 * Zone abbreviations a report writes beside a local time (Adyen's `CET`, `CEST`), as the fixed
 * offsets they stand for, in minutes. Ambiguous ones (`CST`, `IST`, `BST`, `AST`) are left out:
 * they stay unread rather than guessed.
 */
const abbreviations: Readonly<Record<string, number>> = {
  UTC: 0,
  UT: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  BRT: -180,
  ART: -180,
  JST: 540,
  KST: 540,
  HKT: 480,
  SGT: 480,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

/**
 * The zone a report's zone cell names: an abbreviation of the table above (before IANA's legacy
 * `CET`, which follows summer time: an abbreviation is one offset), an offset (`+01:00`,
 * `UTC+1`, `GMT-03:00`), or an IANA name (`Europe/Amsterdam`); undefined for anything else.
 */
export function reportZone(written: string): Zone | undefined {
  const name = written.trim();
  const upper = name.toUpperCase();
  if (Object.hasOwn(abbreviations, upper)) return FixedOffsetZone.instance(abbreviations[upper]!);
  const offset = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(name);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3] ?? 0);
    return minutes > 14 * 60 ? undefined : FixedOffsetZone.instance(offset[1] === '-' ? -minutes : minutes);
  }
  return name.includes('/') && IANAZone.isValidZone(name) ? IANAZone.create(name) : undefined;
}
