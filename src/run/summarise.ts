import { runExitCode } from '../core/exitCodes.js';
import { reportIsFaulty, type ReportBuilder } from '../report/report.js';
import type { SetupFailure } from '../send/setupFailure.js';
import type { StateError } from '../state/stateErrors.js';
import type { RunLedger } from './runLedger.js';
import type { RunResult } from './runRequest.js';

/** How the run ended, besides what its ledger holds. */
export interface RunEnd {
  interrupted: boolean;
  /** Requests made again (a run that sent). */
  retried?: number;
  halted?: SetupFailure;
  stateFailure?: StateError;
  /** The person asked before sending said no. */
  declined: boolean;
}

/** The run's last notes, its report and its exit code. */
export function summarise(ledger: RunLedger, report: ReportBuilder, end: RunEnd): RunResult {
  const { interrupted, halted, stateFailure, declined } = end;
  if (end.retried !== undefined) ledger.addRetries(end.retried);
  if (stateFailure)
    ledger.note('state-failed', `stopped sending: ${stateFailure.message}; ${stateFailure.hint ?? ''}`);
  if (halted) ledger.note('stopped', `stopped sending: ${halted.summary}; ${halted.hint}`);
  // Stopped while the last requests drained: the report must still say the run is unfinished.
  if (interrupted && !ledger.saw('interrupted')) {
    ledger.note(
      'interrupted',
      'interrupted: the requests in flight finished and were saved; run the same command again to go on',
    );
  }
  const built = report.build();
  const keyRefused = ledger.saw('key-refused');
  const deliveryFailed = keyRefused || halted !== undefined || ledger.saw('delivery-failed');
  // A record counts as done only once the service accepted it: one it rejected earlier, unchanged, is not.
  const faulty = reportIsFaulty(built) || declined || ledger.saw('rejected-before');
  return {
    report: built,
    issues: report.issues(),
    interrupted,
    keyRefused,
    declined,
    ...(halted ? { halted } : {}),
    ...(stateFailure ? { stateFailure } : {}),
    exitCode: runExitCode({ interrupted, stateFailed: stateFailure !== undefined, deliveryFailed, faulty }),
  };
}
