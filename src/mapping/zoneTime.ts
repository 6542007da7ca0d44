import { IANAZone } from 'luxon';
import type { LocalTime } from './datetimePattern.js';

const HOUR = 3_600_000;

/** Names already checked: luxon's check builds an Intl formatter, and a mapping is compiled once per file it reads. */
const zonesChecked = new Map<string, boolean>();

/** Whether a name is an IANA time zone this runtime knows (`America/Sao_Paulo`, `UTC`). */
export function isKnownZone(name: string): boolean {
  let known = zonesChecked.get(name);
  if (known === undefined) zonesChecked.set(name, (known = IANAZone.isValidZone(name)));
  return known;
}

export type ZoneResult = { ok: true; instant: number } | { ok: false; reason: 'gap' };

/**
 * A local time in a zone as a UTC instant (ms). The offsets in force a day before and a day
 * after are the only candidates; a time that occurs twice is the earlier instant, one that
 * never occurs (clocks going forward) is a gap. Offsets come from luxon's zone data (Intl).
 */
export class ZoneClock {
  private readonly zone: IANAZone;
  /** Per local day: its one offset, or 'varies' on a day the clocks change (then per quarter-hour). */
  private readonly days = new Map<number, number | 'varies'>();
  private readonly quarters = new Map<number, number | 'gap'>();

  constructor(name: string) {
    this.zone = IANAZone.create(name);
  }

  toInstant(time: LocalTime): ZoneResult {
    const local = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
    const day = Math.floor(local / (24 * HOUR));
    let offset: number | 'varies' | 'gap' | undefined = this.days.get(day);
    if (offset === undefined) {
      offset = this.dayOffset(day * 24 * HOUR);
      if (this.days.size > 100_000) this.days.clear();
      this.days.set(day, offset);
    }
    if (offset === 'varies') {
      const quarter = Math.floor(local / 900_000);
      offset = this.quarters.get(quarter);
      if (offset === undefined) {
        offset = this.offsetFor(quarter * 900_000);
        if (this.quarters.size > 100_000) this.quarters.clear();
        this.quarters.set(quarter, offset);
      }
    }
    return offset === 'gap' ? { ok: false, reason: 'gap' } : { ok: true, instant: local - offset * 60_000 };
  }

  /** The offset of a whole local day when it has no transition (every day but two a year, at most). */
  private dayOffset(start: number): number | 'varies' {
    const first = this.offsetFor(start);
    const last = this.offsetFor(start + 24 * HOUR - 900_000);
    if (first === 'gap' || first !== last) return 'varies';
    // A transition inside the day shows as a different offset at its middle instants.
    const instantStart = start - first * 60_000;
    return this.zone.offset(instantStart + 24 * HOUR - 1) === first &&
      this.zone.offset(instantStart + 12 * HOUR) === first
      ? first
      : 'varies';
  }

  private offsetFor(local: number): number | 'gap' {
    const candidates = new Set([this.zone.offset(local - 24 * HOUR), this.zone.offset(local + 24 * HOUR)]);
    const fits = [...candidates].filter((offset) => this.zone.offset(local - offset * 60_000) === offset);
    if (fits.length === 0) return 'gap';
    // The earlier instant has the larger offset.
    return Math.max(...fits);
  }
}

/** A UTC instant as the service writes datetimes: `YYYY-MM-DDTHH:mm:ssZ`. */
export function formatInstant(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 19)}Z`;
}
