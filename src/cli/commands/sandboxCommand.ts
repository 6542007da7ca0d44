import { Command, InvalidArgumentError } from 'commander';
import { defaultRules } from '../../sandbox/decide.js';
import { startSandbox } from '../../sandbox/server.js';
import type { CliIo } from '../io.js';

interface SandboxFlags {
  port: number;
  host: string;
  key?: string;
  record?: string;
  seed: number;
  failRate: number;
  throttleRate: number;
  slowRate: number;
  slowMs: number;
  resetRate: number;
  retryAfter: number;
  rejectAbove: number;
  reviewAbove: number;
  blockedBins: string;
}

const rate = (text: string) => {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new InvalidArgumentError('give a fraction from 0 to 1, e.g. 0.1');
  return value;
};
const number = (text: string) => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError('give a number of at least 0');
  return value;
};

/** `collect sandbox`: a local stand-in for the service, until Ctrl-C. */
export function sandboxCommand(io: CliIo, untilStopped: () => Promise<void>): Command {
  return new Command('sandbox')
    .summary('run a local, stateful stand-in for the service (faults on demand)')
    .description('Serves the five endpoints on a local port with the same schemas and the answers of the\nservice; evaluations follow simple rules; faults are seeded, so a run can be replayed.')
    .option('--port <n>', 'port to listen on (0: any free port)', number, 8787)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--key <key>', 'accept only this API key (default: any key)')
    .option('--record <file>', 'append every request and answer to this NDJSON file (never the key)')
    .option('--seed <n>', 'seed of the fault sequence', number, 1)
    .option('--fail-rate <r>', 'share of requests answered 503', rate, 0)
    .option('--throttle-rate <r>', 'share of requests answered 429 with Retry-After', rate, 0)
    .option('--slow-rate <r>', 'share of requests answered only after --slow-ms', rate, 0)
    .option('--slow-ms <ms>', 'delay of a slow answer (past the client timeout of 2000 ms)', number, 2500)
    .option('--reset-rate <r>', 'share of connections dropped without an answer', rate, 0)
    .option('--retry-after <s>', 'Retry-After seconds of a 429', number, 1)
    .option('--reject-above <value>', 'evaluate: reject orders whose total_paid_value is above this', number, defaultRules.rejectAbove)
    .option('--review-above <value>', 'evaluate: send to manual review above this', number, defaultRules.reviewAbove)
    .option('--blocked-bins <list>', 'evaluate: reject cards with these first six digits (comma-separated)', defaultRules.blockedBins.join(','))
    .addHelpText('after', `
Examples:
  $ collect sandbox                                        # then, in another terminal:
  $ COLLECT_API_KEY=test collect backfill fixtures/history --base-url http://127.0.0.1:8787
  $ collect sandbox --fail-rate 0.2 --throttle-rate 0.1 --seed 7 --record sandbox.ndjson
  $ curl -s http://127.0.0.1:8787/_sandbox/orders/ORD-1001`)
    .action(async (flags: SandboxFlags) => {
      const sandbox = await startSandbox({
        host: flags.host, port: flags.port, seed: flags.seed, slowMs: flags.slowMs, retryAfterSeconds: flags.retryAfter,
        faults: { fail: flags.failRate, throttle: flags.throttleRate, slow: flags.slowRate, reset: flags.resetRate },
        rules: { rejectAbove: flags.rejectAbove, reviewAbove: flags.reviewAbove, blockedBins: flags.blockedBins.split(',').map((bin) => bin.trim()).filter(Boolean) },
        ...(flags.key === undefined ? {} : { key: flags.key }), ...(flags.record === undefined ? {} : { record: flags.record }),
      });
      const faults = [['fail', flags.failRate], ['throttle', flags.throttleRate], ['slow', flags.slowRate], ['reset', flags.resetRate]].filter(([, r]) => Number(r) > 0);
      io.stderr.write(`collect sandbox: listening on ${sandbox.url} (${flags.key === undefined ? 'any key accepted' : 'one key accepted'}; faults: ${faults.length ? faults.map(([n, r]) => `${n} ${r}`).join(', ') : 'none'}; seed ${flags.seed})\n  stop it with Ctrl-C\n`);
      await untilStopped();
      await sandbox.close();
      io.stderr.write('collect sandbox: stopped\n');
    });
}
