import type Database from 'better-sqlite3';
import { AnswerLog } from './answerLog.js';
import { StateError } from './stateErrors.js';
import { StateLock } from './stateLock.js';
import type { StoreStatements } from './stateStatements.js';
import { eachWrite } from './stateWriteSql.js';

/**
 * Commits, in one transaction, what killed runs left in their answer logs beside the state file
 * at `path` (AnswerLog; not those of runs holding a lock), then removes the files. `raw`: the
 * connection unguarded, for the lock table; `db` and `statements`: the store's own.
 */
export function replayAnswers(raw: Database.Database, db: Database.Database, statements: StoreStatements, path: string, token: string): void {
  const left = AnswerLog.claimLeft(path, token, StateLock.heldTokens(raw));
  if (left.files.length === 0) return;
  try {
    db.transaction(() => {
      for (const { writes, ops } of left.groups) eachWrite(ops, writes, (name, parameters) => statements[name].run(...parameters));
    })();
    AnswerLog.remove(left.files);
  } catch (cause) {
    if (cause instanceof StateError) throw cause;
    throw new StateError(`cannot commit the answers a killed run left beside the state file ${path} (${(cause as Error).message})`, `move the files ${path}-answers-* aside, then run the same command again: their answers are sent again`);
  }
}
