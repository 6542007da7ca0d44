import { Command, InvalidArgumentError, Option } from 'commander';
import { reportFormats } from '../report/formatReport.js';
import { parseShard } from '../run/shard.js';
import type { Shard } from '../state/runState.js';
import { TRANSFORM_TIMEOUT_MS } from '../compose/transformModule.js';

function wholeNumber(min: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min)
      throw new InvalidArgumentError(`give a whole number of at least ${min}`);
    return value;
  };
}

/** A rate: any positive number of requests per second (0.5 is one every two seconds). */
function positiveRate(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError('give a positive number of requests per second, e.g. 10 or 0.5');
  return value;
}

function shardOption(text: string): Shard {
  const shard = parseShard(text);
  if (typeof shard === 'string') throw new InvalidArgumentError(shard);
  return shard;
}

/** Declares the flags every checking and sending command shares (compose/runFlags.ts reads them as RunFlags). */
export function addRunOptions(command: Command): Command {
  return command
    .option('--dry-run', 'check and report; send nothing (no key or URL needed)')
    .addOption(
      new Option('--format <format>', 'report format on standard output')
        .choices(reportFormats)
        .default('pretty'),
    )
    .option('--strict', 'count warnings as errors')
    .option('--max-errors <n>', 'stop after this many invalid records', wholeNumber(1))
    .option(
      '--state <dir|url>',
      'the state: a folder (SQLite, default .collect) or a postgres:// URL shared by a team, CI ' +
        'and shards (default: COLLECT_STATE); a dry run reads one only when given it (or ' +
        "--base-url's) and writes one only with --state",
    )
    .option('--no-state', 'use no state folder: check this run alone, remember nothing')
    .option('--base-url <url>', 'the service (default: COLLECT_BASE_URL); https, or http to loopback only')
    .option('--api-key-file <path>', 'read the API key from this file (default: COLLECT_API_KEY)')
    .option(
      '--timeout <ms>',
      'abandon an attempt this long after it starts, headers and body together',
      wholeNumber(1),
      2000,
    )
    .option('--concurrency <n>', 'requests in flight at once', wholeNumber(1), 8)
    .option(
      '--rate <n>',
      'at most this many requests per second (fractions too: 0.5 is one every 2 s)',
      positiveRate,
    )
    .option(
      '--retries <n>',
      'retries of a request on timeouts, connection errors, 408, 429 and 5xx',
      wholeNumber(0),
      5,
    )
    .option(
      '--rejects <path>',
      'write invalid and rejected records here, in their input format, with the reasons',
    )
    .option('--results <file>', "write one JSON line per sent record: status code and the service's answer")
    .option(
      '--report-html <file>',
      'also write the report as one self-contained HTML page (coverage, issue groups, timeline) ' +
        'here; overwrites only a report collect wrote',
    )
    .option(
      '--lock-wait <seconds>',
      'wait this long for another run that holds the state (default: refuse at once, exit 2)',
      wholeNumber(0),
      0,
    )
    .option(
      '--shard <i/n>',
      'take only the orders whose id hashes to shard I of N (0-based; every record of an order lands in one shard)',
      shardOption,
    )
    .option(
      '--resend',
      'send again what an earlier run already sent (the state is otherwise the journal of a re-run)',
    )
    .option(
      '--transform <module>',
      'a JavaScript module whose default export turns each record into a record, a list of them, ' +
        'or null (for what a mapping cannot say)',
    )
    .option(
      '--transform-timeout <ms>',
      'a --transform call that has not settled this long after it started is an error of its record',
      wholeNumber(1),
      TRANSFORM_TIMEOUT_MS,
    )
    .option('--all-issues', 'the pretty report lists every issue (past 20 it counts them by code and field)')
    .option(
      '--max-record-bytes <n>',
      'report records larger than this instead of reading them',
      wholeNumber(1),
      1024 * 1024,
    );
}
