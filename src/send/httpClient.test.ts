import { afterEach, describe, expect, it } from 'vitest';
import { hugeAnswerServer, sameAnswerServer, tricklingServer } from '../../test/helpers/hostileServers.js';
import { createHttpClient } from './httpClient.js';

const KEY = 'sk_test_cut_here_0123456789';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('createHttpClient', () => {
  it('gives up on a trickling body at the deadline, though every byte comes in time', async () => {
    const server = await tricklingServer(50, 40);
    const client = createHttpClient(new URL(server.url), KEY, 1, 300);
    closers.push(server.close, () => client.close());
    expect(await client.send('PUT', '/v2/order', '{}')).toEqual({ kind: 'timeout' });
  });

  it('keeps at most the cap of an answer, marks it truncated, and stops reading', async () => {
    const server = await hugeAnswerServer(20);
    const client = createHttpClient(new URL(server.url), KEY, 1, 5000, 100_000);
    closers.push(server.close, () => client.close());
    const attempt = await client.send('PUT', '/v2/order', '{}');
    expect(attempt).toMatchObject({ kind: 'answer', status: 201, truncated: true });
    expect(attempt.kind === 'answer' && attempt.text.length).toBeLessThanOrEqual(100_000);
    expect(server.written()).toBeLessThan(20 * 1024 * 1024);
  });

  it('drops the tail of a truncated answer, so a key cut in two leaves no part behind', async () => {
    const body = `${'x'.repeat(990)}${KEY}${'y'.repeat(500)}`; // the cap at 1000 cuts the key after 10 characters
    const server = await sameAnswerServer(201, {}, body);
    const client = createHttpClient(new URL(server.url), KEY, 1, 5000, 1000);
    closers.push(server.close, () => client.close());
    const attempt = await client.send('PUT', '/v2/order', '{}');
    expect(attempt).toMatchObject({ kind: 'answer', truncated: true });
    expect(attempt.kind === 'answer' && attempt.text).not.toContain(KEY.slice(0, 4));
  });

  it('reads a whole answer under the cap as it is', async () => {
    const server = await sameAnswerServer(201, {}, '{"message":"ok"}');
    const client = createHttpClient(new URL(server.url), KEY, 1, 5000, 1000);
    closers.push(server.close, () => client.close());
    expect(await client.send('PUT', '/v2/order', '{}')).toMatchObject({
      kind: 'answer',
      status: 201,
      text: '{"message":"ok"}',
    });
  });
});
