/**
 * The HTML report as a person sees it: opened offline from a file:// URL in headless Chromium
 * (Debian's, driven by playwright-core), every hostile cell shown as text, nothing loaded.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { error } from '../src/core/issue.js';
import { htmlChunks } from '../src/report/formatHtml.js';
import { InsightsBuilder } from '../src/report/insights.js';
import { ReportBuilder } from '../src/report/report.js';
import { startServer } from './helpers/localServer.js';
import { findChromium } from './helpers/prerequisites.js';
import { tempDir } from './helpers/tempDir.js';
import { describeWith, has } from './helpers/withPrerequisite.js';

const main = resolve('dist/cli/main.js');
/** Where the screenshots are kept as CI artefacts (gitignored). */
const ARTIFACTS = resolve('test-artifacts');

/** The built binary, run as a user or a CI job would. */
function collect(cwd: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const SCRIPT = '<script>window.pwned = 1</script>';
const IMG = '"><img src=x onerror="window.pwned = 2">';
const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
/** A valid order, one with hostile cells (an id, a value, an unknown column's name), one more. */
const ORDERS = [
  `id,creation_datetime,total_paid_value,user.document,payments.0.id,payments.0.acquirer_id,${quoted(IMG)}`,
  'A-1,2026-03-01T14:30:00Z,10.50,123,P1,ACQ1,x',
  `A-2,${quoted(SCRIPT)},${quoted(IMG)},,P2,,x`,
  'A-3,2026-03-01T14:30:00Z,12,456,P3,,x',
].join('\n');

let browser: Browser;
beforeAll(async () => {
  if (!has('chromium')) return; // its tests are skipped, and the run says so
  // Traffic of Chromium's own (updates, time, accounts) goes to a dead end on the loopback: nothing leaves the machine.
  browser = await chromium.launch({
    executablePath: findChromium()!,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--proxy-server=127.0.0.1:9',
      '--proxy-bypass-list=<-loopback>',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Opens the report offline; returns the page with every request, console message and page error it made. */
async function open(file: string) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const requests: string[] = [];
  const console: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (cause) => console.push(`pageerror: ${cause.message}`));
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests: () => requests.filter((request) => request !== url), console };
}

describeWith('chromium')('--report-html, opened in Chromium', () => {
  it(
    'a run that sends: summary, groups, charts and timeline; hostile cells as text; no request, no ' +
      'console error',
    async () => {
      const dir = tempDir('collect-html-');
      writeFileSync(join(dir, 'orders.csv'), ORDERS);
      const service = await startServer(() => ({ status: 200, body: { order_decision: 'approve' } }));
      try {
        const run = await collect(
          dir,
          [
            'order',
            'orders.csv',
            '--no-state',
            '--base-url',
            service.url,
            '--format',
            'junit',
            '--report-html',
            'report.html',
          ],
          { COLLECT_API_KEY: 'sk_test_html-report-0123456789' },
        );
        expect(run.stderr).toBe('');
        expect(run.code).toBe(1);
        expect(run.stdout).toContain('<testsuites');
      } finally {
        await service.close();
      }
      const html = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(html).not.toContain('sk_test_html-report');
      const { page, requests, console } = await open(join(dir, 'report.html'));
      await expect(page.locator('.verdict').textContent()).resolves.toBe('Problems found');
      expect(await page.locator('.tile').count()).toBeGreaterThanOrEqual(10);
      const groups = page.locator('details.group');
      expect(await groups.count()).toBeGreaterThanOrEqual(2);
      // Closed until clicked: the fix and the examples show once the group is open.
      const fix = groups.first().locator('.fix');
      expect(await fix.isVisible()).toBe(false);
      await groups.first().locator('summary').click();
      expect(await fix.isVisible()).toBe(true);
      expect(await groups.first().locator('.examples li .where').first().textContent()).toMatch(
        /^orders\.csv:\d+ record \d+$/,
      );
      expect(await page.locator('#coverage svg.chart rect.fill').count()).toBe(16);
      expect(await page.locator('#flow svg.chart').count()).toBe(1);
      expect(await page.locator('#sending svg.timeline rect.accepted').count()).toBeGreaterThan(0);
      expect(await page.locator('#sending').textContent()).toContain('approve');
      // The hostile cells are on the page as text, and did nothing.
      const text = (await page.locator('body').textContent()) ?? '';
      expect(text).toContain(SCRIPT);
      expect(text).toContain(IMG);
      expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.locator('img, script, iframe, object, embed, link').count()).toBe(0);
      await groups.evaluateAll((all) => all.forEach((group) => group.setAttribute('open', '')));
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'html-report-send.png'), fullPage: true });
      expect(requests()).toEqual([]);
      expect(console).toEqual([]);
      await page.close();
    },
  );

  it('a sandbox contract session (--report FILE.html): coverage, answers per minute and decisions', async () => {
    const dir = tempDir('collect-html-sandbox-');
    writeFileSync(join(dir, 'orders.csv'), ORDERS);
    const session = await collect(
      dir,
      [
        'sandbox',
        '--port',
        '0',
        '--report',
        'session.html',
        '--',
        process.execPath,
        main,
        'order',
        'orders.csv',
        '--no-state',
      ],
      { COLLECT_API_KEY: 'sandbox-key' },
    );
    expect(session.stderr).toContain('report written to session.html');
    const { page, requests, console } = await open(join(dir, 'session.html'));
    await expect(page.locator('h1').textContent()).resolves.toBe('collect report: collect sandbox session');
    expect(await page.locator('#coverage svg.chart').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#sending svg.timeline').count()).toBe(1);
    expect(await page.locator('#flow svg.chart').count()).toBe(1);
    // A session judges requests: it lists them as such, never as files.
    const counts = (await page.locator('#counts').innerText()).toLowerCase();
    expect(counts).toContain('requests');
    expect(counts).not.toMatch(/per file|\bfiles?\b/);
    const judged = /(\d+) requests? judged/.exec(session.stderr);
    expect(await page.locator('#counts td.request').count()).toBe(Number(judged?.[1]));
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'html-report-sandbox.png'), fullPage: true });
    expect(requests()).toEqual([]);
    expect(console).toEqual([]);
    await page.close();
  });
});

/** A page of the report builder's, written to a file and opened as a person would (narrow: a phone's width). */
async function openPage(html: string, width = 1000) {
  const dir = tempDir('collect-html-view-');
  writeFileSync(join(dir, 'report.html'), html);
  const opened = await open(join(dir, 'report.html'));
  await opened.page.setViewportSize({ width, height: 900 });
  return opened;
}

/** The few DOM types renderedLines needs: this file is compiled without the DOM library. */
interface LaidOutDocument {
  createTreeWalker(root: unknown, show: number): { nextNode(): unknown };
  createRange(): {
    setStart(node: unknown, offset: number): void;
    setEnd(node: unknown, offset: number): void;
    getClientRects(): ArrayLike<{ top: number }>;
  };
}

/** The lines an element's text is laid out on, as the browser broke them. */
function renderedLines(element: { ownerDocument: LaidOutDocument }): string[] {
  const document = element.ownerDocument;
  const lines: string[] = [];
  let line = '';
  let top: number | undefined;
  const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
  for (
    let node = walker.nextNode() as { data: string } | null;
    node;
    node = walker.nextNode() as typeof node
  ) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect && top !== undefined && rect.top > top + 2) {
        lines.push(line);
        line = '';
      }
      if (rect) top = rect.top;
      line += node.data[i];
    }
  }
  lines.push(line);
  return lines;
}

describeWith('chromium')('what a person reads in the HTML report (Chromium)', () => {
  it('a file name wraps after a path separator, never inside a word, in every "where"', async () => {
    const file = 'exports/platform-eu-west-1/2026-03-01/daily/orders-march.csv';
    const builder = new ReportBuilder({ strict: false });
    for (let n = 0; n < 2; n++)
      builder.add('order', { file, index: n, line: n + 2 }, [error('required', 'id', 'id is required')]);
    const { page } = await openPage([...htmlChunks(builder.build(), builder.issues())].join(''), 400);
    await page.locator('details.group summary').first().click();
    const cells = page.locator('details.group code.file, #issues td.file, #counts td.file');
    expect(await cells.count()).toBe(5);
    for (const cell of await cells.all()) {
      const lines = await cell.evaluate(renderedLines);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.join('')).toMatch(
        /^exports\/platform-eu-west-1\/2026-03-01\/daily\/orders-march\.csv(:\d+)?$/,
      );
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/\/$/);
    }
    await page.close();
  });

  it("a group reads as the group's (rule, field, count, the rule's fix), each example with its own order", async () => {
    const builder = new ReportBuilder({ strict: false });
    for (let n = 1; n <= 5; n++)
      builder.add('status', { file: 'status.csv', index: n, line: n + 1 }, [
        error('order-invalid', 'id', `the creation of order "O${n}" at orders.csv:${n + 1} is invalid`, {
          hint: `fix the creation at orders.csv:${n + 1} and send it first`,
        }),
      ]);
    const { page } = await openPage([...htmlChunks(builder.build(), builder.issues())].join(''));
    const group = page.locator('details.group').first();
    await group.locator('summary').click();
    const text = await group.locator(':scope > p.message').innerText();
    expect(text).toMatch(/^5 issues of order-invalid on id \(status\): a status update/);
    const fix = await group.locator(':scope > p.fix').innerText();
    expect(fix).toMatch(/^Fix: fix the order's creation/);
    expect(`${text} ${fix}`).not.toMatch(/"O\d"|orders\.csv/);
    expect(await group.locator('.examples-title').innerText()).toBe('The first 3 of 5:');
    const examples = await group.locator('.examples li').allInnerTexts();
    expect(examples).toHaveLength(3);
    examples.forEach((example, i) => {
      expect(example).toContain(`status.csv:${i + 2} record ${i + 1}`);
      expect(example).toContain(`the creation of order "O${i + 1}"`);
    });
    await page.close();
  });

  it("a clean history's flow coverage is not red: the service's own declines are shown apart (§1.5)", async () => {
    const builder = new ReportBuilder({ strict: false });
    const insights = new InsightsBuilder(() => 0);
    const declined = {
      created: true,
      status: true,
      declined: true,
      fraudMarked: false,
      serviceRejected: false,
      decisionUnknown: false,
      payments: 0,
      withAcquirer: 0,
    };
    insights.order({ ...declined, fraudMarked: true });
    insights.order({ ...declined, serviceRejected: true });
    insights.order({ ...declined, serviceRejected: true });
    const html = [...htmlChunks(builder.build(), builder.issues(), { insights: insights.build() })].join('');
    const { page } = await openPage(html);
    const fills = await page
      .locator('#flow rect.fill')
      .evaluateAll((rects) =>
        rects.map((rect) => rect.ownerDocument.defaultView!.getComputedStyle(rect).fill),
      );
    expect(fills).toHaveLength(4);
    const red = await page
      .locator('html')
      .evaluate((root) => root.ownerDocument.defaultView!.getComputedStyle(root).getPropertyValue('--poor'));
    expect(red.trim()).toBe('#d64545');
    expect(fills).not.toContain('rgb(214, 69, 69)');
    const flow = await page.locator('#flow').innerText();
    expect(flow).toContain('platform declines with fraud mark');
    expect(flow).toContain("2 declined by the service's own evaluation");
    await page.close();
  });
});

describe('--report-html never overwrites a file by surprise', () => {
  it("refuses a user's file (exit 2, the file as it was), and replaces a report collect wrote", async () => {
    const dir = tempDir('collect-html-safety-');
    writeFileSync(join(dir, 'orders.csv'), ORDERS);
    writeFileSync(join(dir, 'notes.html'), '<p>my notes</p>');
    const refused = await collect(dir, ['order', 'orders.csv', '--dry-run', '--report-html', 'notes.html']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--report-html notes.html exists and is not an HTML report collect wrote',
    );
    expect(readFileSync(join(dir, 'notes.html'), 'utf8')).toBe('<p>my notes</p>');
    const inputs = await collect(dir, ['order', 'orders.csv', '--dry-run', '--report-html', 'orders.csv']);
    expect(inputs.code).toBe(2);
    const first = await collect(dir, ['order', 'orders.csv', '--dry-run', '--report-html', 'r.html']);
    expect(first.code).toBe(1);
    expect(statSync(join(dir, 'r.html')).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, 'orders.csv'), ORDERS.split('\n').slice(0, 2).join('\n'));
    const again = await collect(dir, ['order', 'orders.csv', '--dry-run', '--report-html', 'r.html']);
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain('<p class="verdict pass">');
  });

  it('--format html writes the page on standard output', async () => {
    const dir = tempDir('collect-html-stdout-');
    writeFileSync(join(dir, 'orders.csv'), ORDERS);
    const run = await collect(dir, ['order', 'orders.csv', '--dry-run', '--format', 'html']);
    expect(run.code).toBe(1);
    expect(run.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(run.stdout).toContain('<section id="coverage">');
  });
});
