// Bundles the command line and the piece worker into dist/bundle/ (`npm run build`, after tsc; the tests' global
// setup too): Node's loader took longer to find and link some 380 modules of dist/ and node_modules than a small
// dry run took to do its work. Split at each dynamic import(), so that `collect --version` still loads only what it
// uses. The rest of dist/ stays as tsc wrote it: the library's entry, the state writer's worker, and the modules
// the single binary bundles its own way (scripts/buildBinary.js).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const outdir = join(dist, 'bundle');

/**
 * Each module's import.meta.url stays its own file's, so that the URLs made from it (a worker's script, the
 * presets folder) name the same files as unbundled; every output is in `outdir`, the base they are resolved from.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(bundler) {
    bundler.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const own = relative(outdir, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`),
      };
    });
  },
};

/** Bundles `entryPoints` (name: file) into `outdir`, as ES modules split at each dynamic import. */
async function bundle(entryPoints) {
  await build({
    entryPoints,
    outdir,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // The CommonJS dependencies (iconv-lite, pg) call require: an ES module has none of its own.
    banner: {
      js: [
        "import { createRequire as __collectRequire } from 'node:module';",
        'const require = __collectRequire(import.meta.url);',
      ].join('\n'),
    },
    plugins: [ownImportMetaUrl],
    logLevel: 'warning',
  });
}

/** Writes dist/bundle/ anew, and the piece worker that loads its part of it. */
export async function bundleDist() {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  // One build for both: the modules they share are one chunk, loaded once by each thread.
  const entry = join(outdir, '.pieceWorker.js');
  writeFileSync(
    entry,
    [
      `export { servePieces } from ${JSON.stringify(relative(outdir, join(dist, 'parallel', 'pieceService.js')))};`,
      `export { createPieceTask } from ${JSON.stringify(relative(outdir, join(dist, 'decode', 'pieceTask.js')))};`,
    ].join('\n'),
  );
  await bundle({ collect: join(dist, 'cli', 'main.js'), pieceWorker: entry });
  rmSync(entry);
  chmodSync(join(outdir, 'collect.js'), 0o755);
  // The worker's script loads its bundled code once the thread has Node's compile cache on; its task is imported,
  // not loaded from workerData's URL as src/parallel/pieceWorker.js does.
  writeFileSync(
    join(dist, 'parallel', 'pieceWorker.js'),
    [
      '// Written by scripts/bundleDist.js: src/parallel/pieceWorker.js with its modules bundled (dist/bundle/).',
      "import { enableCompileCache } from 'node:module';",
      "import { parentPort } from 'node:worker_threads';",
      '',
      "if (!parentPort) throw new Error('pieceWorker runs as a worker thread');",
      'enableCompileCache();',
      "const { servePieces, createPieceTask } = await import('../bundle/pieceWorker.js');",
      'servePieces(parentPort, createPieceTask);',
      '',
    ].join('\n'),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleDist();
