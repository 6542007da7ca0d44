import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../test/helpers/localServer.js';
import { runCli } from '../../test/helpers/memoryIo.js';

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
});
afterAll(() => server.close());

describe('collect fraud --type', () => {
  it.each([
    ['Chargeback', 'chargeback'],
    ['CHARGEBACK', 'chargeback'],
    ['Manual Analysis', 'manual_analysis'],
    ['third-party-antifraud', 'third_party_antifraud'],
  ])('takes %j and sends %j', async (given, meant) => {
    const { code } = await runCli(
      [
        'fraud',
        '--order-id',
        `ORD-${given}`,
        '--type',
        given,
        '--comment',
        'by hand',
        '--yes',
        '--base-url',
        server.url,
        '--no-state',
      ],
      { env: { COLLECT_API_KEY: 'sk_test_folded-choices-0123456789' } },
    );
    expect(code).toBe(0);
    const body = JSON.parse(server.requests.at(-1)!.body) as { order_id: string; fraud_signal_type: string };
    expect(body).toMatchObject({ order_id: `ORD-${given}`, fraud_signal_type: meant });
  });

  it('refuses a misspelt type, naming the one it most likely meant', async () => {
    const { code, stderr } = await runCli([
      'fraud',
      '--order-id',
      'ORD-1',
      '--type',
      'chargebak',
      '--dry-run',
      '--no-state',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('did you mean chargeback?');
    expect(stderr).toContain('acquirer, manual_analysis, chargeback, third_party_antifraud, other');
  });
});
