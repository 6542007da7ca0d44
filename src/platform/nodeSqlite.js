// @ts-check
// node:sqlite, loaded without the ExperimentalWarning some Nodes print on its first load (Node 22):
// a user of collect has nothing to do about it. Plain JavaScript so that the state's writer thread
// (fast/stateWriterWorker.js) loads it too, from src/ (tests) and from dist/.
const emit = process.emitWarning;
/** @type {typeof process.emitWarning} */
const quiet = function (warning, ...rest) {
  const type =
    typeof rest[0] === 'string' ? rest[0] : /** @type {{ type?: string } | undefined} */ (rest[0])?.type;
  if (type === 'ExperimentalWarning' && String(warning).includes('SQLite')) return;
  return Reflect.apply(emit, process, [warning, ...rest]);
};
process.emitWarning = quiet;
/** @type {typeof import('node:sqlite')} */
let sqlite;
try {
  sqlite = process.getBuiltinModule('node:sqlite');
} finally {
  process.emitWarning = emit;
}

export const DatabaseSync = sqlite.DatabaseSync;
