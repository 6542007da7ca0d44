import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { FILES_SHOWN, GROUPS_SHOWN, HTML_REPORT_MARK, htmlChunks } from './formatHtml.js';
import { InsightsBuilder } from './insights.js';
import { ReportBuilder } from './report.js';

const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
const at = (file: string, index: number) => ({ file, index, line: index + 2 });

/** A run with a hostile file name, field, message and value, a send and a decision. */
function hostileRun() {
  const builder = new ReportBuilder({ strict: false });
  const insights = new InsightsBuilder(() => Date.UTC(2026, 0, 1, 10, 0));
  const events = [
    {
      kind: 'read' as const,
      endpoint: 'order',
      location: at(`${HOSTILE}.csv`, 0),
      issues: [
        error('unknown-field', HOSTILE, `field "${HOSTILE}" is not a field`, {
          value: HOSTILE,
          hint: HOSTILE,
        }),
      ],
      coverage: 0b1,
    },
    { kind: 'read' as const, endpoint: 'order', location: at('orders.csv', 1), issues: [], coverage: 0b11 },
    {
      kind: 'read' as const,
      endpoint: 'order',
      location: at('orders.csv', 2),
      issues: [warning('phone-digits', 'user.phone_number', 'not digits')],
      coverage: 0,
    },
    {
      kind: 'sent' as const,
      endpoint: 'order',
      location: at('orders.csv', 1),
      result: { kind: 'accepted' as const, decision: HOSTILE },
      requested: true,
    },
    { kind: 'note' as const, code: HOSTILE, message: HOSTILE },
  ];
  for (const event of events) {
    builder.apply(event);
    insights.apply(event);
  }
  insights.order({
    created: true,
    status: true,
    declined: true,
    fraudMarked: false,
    serviceRejected: false,
    decisionUnknown: false,
    payments: 2,
    withAcquirer: 1,
  });
  return { report: builder.build(), issues: builder.issues(), insights: insights.build() };
}

const page = (run: ReturnType<typeof hostileRun>, title = HOSTILE) =>
  [...htmlChunks(run.report, run.issues, { insights: run.insights, title })].join('');

describe('htmlChunks', () => {
  it('starts with the mark --report-html looks for, and forbids loading anything', () => {
    const html = page(hostileRun());
    expect(html.startsWith(HTML_REPORT_MARK)).toBe(true);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it('shows every value from the input as text: no tag or attribute of its own gets into the page', () => {
    const html = page(hostileRun());
    expect(html).not.toMatch(/<img|<script|onerror=alert\(1\)>/i);
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    // The only tags are the page's own.
    const tags = new Set([...html.matchAll(/<([a-z0-9]+)/g)].map((match) => match[1]));
    expect([...tags].filter((tag) => !OWN_TAGS.has(tag!))).toEqual([]);
  });

  it('refers to nothing outside itself', () => {
    const html = page(hostileRun());
    // In its own tags (the hostile text has `src=` in it, escaped, as text).
    expect(html).not.toMatch(/<[a-z][^>]*\b(src|href|action|xlink:href)\s*=/i);
    expect(html).not.toMatch(/url\(|@import|https?:\/\/|<link|<iframe|<object|<embed/i);
  });

  it('has the verdict, the counts, the groups with their fix and examples, coverage, flow and sending', () => {
    const html = page(hostileRun(), 'collect order orders.csv');
    expect(html).toContain('<p class="verdict fail">Problems found</p>');
    for (const id of ['summary', 'issues', 'counts', 'coverage', 'flow', 'sending', 'notes'])
      expect(html).toContain(`<section id="${id}">`);
    expect(html).toMatch(/<details class="group error"><summary>.*unknown-field/);
    expect(html).toContain('<details class="group warning">');
    expect(html).toContain('<code class="file"><span class="part">orders.csv:4</span></code> record 2');
    expect(html).toContain('<b>Fix:</b>');
    // Coverage: customer's document in 2 of 3 orders, email in 1 of 3.
    expect(html).toContain('customer&#39;s document (user.document): 2 of 3');
    expect(html).toContain('customer&#39;s email (user.email): 1 of 3');
    expect(html).toContain('platform declines with fraud mark: 0 of 1');
    expect(html).toContain('payments with an acquirer id: 1 of 2');
    expect(html).toContain('aria-label="answers per minute"');
    expect(html).toContain('10:00 UTC: 1 accepted, 0 rejected, 0 failed or unanswered, 0 retried');
  });

  it("counts fraud marks against the platform's declines: the service's own are apart, never red (§1.5)", () => {
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
    // A clean history: one platform decline with its mark, two declines of the service's evaluation without
    // (as they must be).
    insights.order({ ...declined, fraudMarked: true });
    insights.order({ ...declined, serviceRejected: true });
    insights.order({ ...declined, serviceRejected: true });
    const html = [...htmlChunks(builder.build(), builder.issues(), { insights: insights.build() })].join('');
    const flow = html.slice(
      html.indexOf('<section id="flow">'),
      html.indexOf('</section>', html.indexOf('<section id="flow">')),
    );
    expect(flow).toContain('platform declines with fraud mark: 1 of 1');
    expect(flow).not.toContain('fill poor');
    expect(flow).toContain(
      "2 declined by the service's own evaluation: no fraud mark is sent for them (§1.5)",
    );
  });

  it(
    "gives a group its rule's words, field and count; each example says its own (order-invalid ×5 is " +
      'five orders)',
    () => {
      const builder = new ReportBuilder({ strict: false });
      for (let n = 1; n <= 5; n++)
        builder.add('status', at('status.csv', n), [
          error('order-invalid', 'id', `the creation of order "O${n}" at orders.csv:${n + 1} is invalid`, {
            hint: `fix the creation at orders.csv:${n + 1} and send it first`,
          }),
        ]);
      const html = [...htmlChunks(builder.build(), builder.issues())].join('');
      const group = html.slice(html.indexOf('<details class="group'), html.indexOf('</details>'));
      const head = group.slice(0, group.indexOf('<ul class="examples">'));
      expect(head).toContain('5 issues of <code>order-invalid</code> on <code>id</code> (status)');
      expect(head).toContain('whose order&#39;s creation in this run is invalid');
      expect(head).toContain('<b>Fix:</b> fix the order&#39;s creation');
      expect(head).not.toMatch(/O1|orders\.csv:2/);
      expect(head).toContain('The first 3 of 5:');
      for (let n = 1; n <= 3; n++) {
        expect(group).toContain(`the creation of order &quot;O${n}&quot; at orders.csv:${n + 1} is invalid`);
        expect(group).toContain(`Fix: fix the creation at orders.csv:${n + 1} and send it first`);
      }
    },
  );

  it('says a message and a fix once when every issue of the group has them', () => {
    const builder = new ReportBuilder({ strict: false });
    for (let n = 0; n < 4; n++)
      builder.add('order', at('o.csv', n), [
        warning('odd-thing', 'note', 'this is odd', { hint: 'make it even' }),
      ]);
    const html = [...htmlChunks(builder.build(), builder.issues())].join('');
    expect(html).toContain('4 issues of <code>odd-thing</code> on <code>note</code> (order): this is odd');
    expect(html).toContain('<b>Fix:</b> make it even');
    const group = html.slice(html.indexOf('<details class="group'), html.indexOf('</details>'));
    expect(group.match(/this is odd/g)).toHaveLength(1);
    expect(group).toContain('The first 3 of 4:');
  });

  it("lists a sandbox session's requests as requests, those with errors first, not as files", () => {
    const builder = new ReportBuilder({ strict: false });
    for (let n = 1; n <= 3; n++)
      builder.add(
        'order',
        { file: `request #${n} POST /v2/order`, index: 0, line: n },
        n === 3 ? [error('required', 'id', 'id is required')] : [],
      );
    const html = [...htmlChunks(builder.build(), builder.issues(), { requests: true })].join('');
    const counts = html.slice(
      html.indexOf('<section id="counts">'),
      html.indexOf('</section>', html.indexOf('<section id="counts">')),
    );
    expect(counts).not.toMatch(/Per file|<th>files<\/th>|<th>file<\/th>/);
    expect(counts).toContain('<h2>Requests</h2>');
    expect(counts).toContain('<th>endpoint</th><th>requests</th>');
    const listed = [...counts.matchAll(/<td class="request">([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(listed).toEqual([
      'request #3 POST /v2/order',
      'request #1 POST /v2/order',
      'request #2 POST /v2/order',
    ]);
    expect(html).toContain('<div class="label">requests</div>');
  });

  it('says a clean run is valid, without sending or flow sections it has nothing for', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.apply({ kind: 'read', endpoint: 'order', location: at('a.csv', 0), issues: [] });
    const insights = new InsightsBuilder(Date.now);
    insights.apply({ kind: 'read', endpoint: 'order', location: at('a.csv', 0), issues: [], coverage: 0 });
    const html = [...htmlChunks(builder.build(), builder.issues(), { insights: insights.build() })].join('');
    expect(html).toContain('<p class="verdict pass">All valid</p>');
    expect(html).toContain('No issues.');
    expect(html).not.toContain('<section id="sending">');
    expect(html).toContain("No order's records in this run.");
    expect(html).toContain('customer&#39;s document (user.document): 0 of 1');
  });

  it(
    'stays the same size however many records, issues and files: groups and files past their limits ' +
      'are counted',
    () => {
      const size = (records: number) => {
        const builder = new ReportBuilder({ strict: false });
        const insights = new InsightsBuilder(() => 0);
        for (let i = 0; i < records; i++) {
          const event = {
            kind: 'read' as const,
            endpoint: 'order',
            location: at(`file-${i % 400}.csv`, i),
            issues: [error('unknown-field', `field_${i % 500}`, 'unknown field')],
            coverage: i,
          };
          builder.apply(event);
          insights.apply(event);
        }
        const html = [...htmlChunks(builder.build(), builder.issues(), { insights: insights.build() })].join(
          '',
        );
        expect(html.match(/<details class="group/g)).toHaveLength(GROUPS_SHOWN);
        expect(html).toContain(`… and ${500 - GROUPS_SHOWN} more groups`);
        expect(html).toContain(`… and ${400 - FILES_SHOWN} more files`);
        return html.length;
      };
      const small = size(2_000);
      const large = size(40_000);
      // Only the digits of the counts differ.
      expect(large / small).toBeLessThan(1.05);
    },
  );
});

/** The tags the page itself writes. */
const OWN_TAGS = new Set(
  (
    'html head meta title style body main h1 h2 h3 section p div details summary span code b ul li ' +
    'table thead tbody tr th td svg g text tspan rect line footer wbr'
  ).split(' '),
);
