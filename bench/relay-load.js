#!/usr/bin/env node
// An application writing to the outbox: creations and status changes of --orders orders at
// --rate events/s over --connections connections (each event its own transaction), then the
// insert-to-settled latency of every event once the relays have settled them all.
//   node bench/relay-load.js --url postgres://... [--orders 2500] [--rate 500] [--connections 8]
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    table: { type: 'string', default: 'collect_outbox' },
    orders: { type: 'string', default: '2500' },
    rate: { type: 'string', default: '500' },
    connections: { type: 'string', default: '8' },
    help: { type: 'boolean' },
  },
});
if (values.help || !values.url) {
  console.log('node bench/relay-load.js --url postgres://... [--orders 2500] [--rate 500] [--connections 8]');
  process.exit(values.help ? 0 : 2);
}
const orders = Number(values.orders);
const rate = Number(values.rate);
const table = values.table;

const order = (id) => ({
  id,
  creation_datetime: '2024-03-01T10:00:00Z',
  total_paid_value: 10,
  user: { id: `U-${id}` },
});
// Each order's status change comes a little after its creation (50 events later), as in a shop.
const events = [];
for (let i = 0; i < orders; i++) {
  events.push({ at: 2 * i, endpoint: 'order', body: order(`LOAD-${i}`) });
  events.push({ at: 2 * i + 100, endpoint: 'status', body: { id: `LOAD-${i}`, status: 'approved' } });
}
events.sort((a, b) => a.at - b.at);

const clients = await Promise.all(
  Array.from({ length: Number(values.connections) }, async () => {
    const client = new pg.Client({ connectionString: values.url });
    await client.connect();
    return client;
  }),
);
const started = Date.now();
let next = 0;
await Promise.all(
  clients.map(async (client) => {
    for (;;) {
      const index = next++;
      if (index >= events.length) return;
      const due = started + (index * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const { endpoint, body } = events[index];
      await client.query(`INSERT INTO ${table} (endpoint, body) VALUES ($1, $2)`, [endpoint, body]);
    }
  }),
);
const wrote = (Date.now() - started) / 1000;
console.log(
  `inserted ${events.length} events in ${wrote.toFixed(1)} s (${(events.length / wrote).toFixed(0)}/s)`,
);
const db = clients[0];
for (;;) {
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE relay_state IS NULL`);
  if (rows[0].n === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const { rows } = await db.query(
  `SELECT relay_state AS state, extract(epoch FROM relay_at - created_at)::float8 AS s FROM ${table} ORDER BY s`,
);
const sent = rows.filter((row) => row.state === 'sent').map((row) => row.s);
const pick = (p) => sent[Math.min(sent.length - 1, Math.floor((p / 100) * sent.length))];
console.log(
  `settled ${rows.length}: ${sent.length} sent, ${rows.length - sent.length} not; ` +
    `insert-to-settled p50 ${(pick(50) * 1000).toFixed(0)} ms, p99 ${(pick(99) * 1000).toFixed(0)} ` +
    `ms, max ${(sent.at(-1) * 1000).toFixed(0)} ms`,
);
await Promise.all(clients.map((client) => client.end()));
