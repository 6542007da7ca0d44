import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { parse } from 'yaml';
import { jobEnv } from './scratchProject.js';

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, text]) => ({
  lang: lang!,
  text: text!,
}));
const block = (lang: string, marker: string) => {
  const found = blocks.find((candidate) => candidate.lang === lang && candidate.text.includes(marker));
  if (!found) throw new Error(`README.md has no ${lang} block with ${marker}`);
  return found.text;
};

/** The README's CI recipes as written: the GitHub Actions step's run:, GitLab's script: lines, the background form. */
export function readmeRecipes(): { github: string; gitlab: string[]; background: string } {
  const steps = parse(block('yaml', 'judged by collect sandbox')) as { run?: string }[];
  const gitlab = parse(block('yaml', 'contract-test:')) as { 'contract-test': { script: string[] } };
  return {
    github: steps.find((step) => step.run !== undefined)!.run!,
    gitlab: gitlab['contract-test'].script,
    background: block('sh', '--pid-file sandbox.pid'),
  };
}

/**
 * A CI job's script in bash (GitHub and GitLab stop at the first failing line: -eo pipefail), its exit code
 * and output.
 */
export function runJob(script: string, cwd: string, env: Record<string, string>, shellFlags: string[]) {
  const child = spawn('bash', ['--noprofile', '--norc', ...shellFlags, '-c', script], {
    cwd,
    env: jobEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

/** A JUnit file's failure count and text. */
export function junit(dir: string, file = 'collect-report.xml') {
  const text = readFileSync(join(dir, file), 'utf8');
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(text);
  return { failures: Number(parsed.testsuites['@_failures']), text };
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The background form with the sandbox on `port` (8787 may be taken on a shared machine), as the app's tests
 * are told.
 */
export const onPort = (background: string, port: number) =>
  background.replace('collect sandbox ', `collect sandbox --port ${port} `);
