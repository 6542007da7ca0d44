// The bare library: undici with 8 connections sending the same status updates, nothing else.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, file, connections = '8'] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').trim().split('\n');
const header = lines[0].split(',');
const bodies = lines.slice(1).map((line) => {
  const cells = line.split(',');
  const record = {};
  header.forEach((name, i) => {
    if (cells[i]) record[name] = cells[i];
  });
  return JSON.stringify(record);
});
const pool = new Pool(url, { connections: Number(connections), pipelining: 1 });
const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/json' };
let next = 0;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const response = await pool.request({ method: 'PUT', path: '/v2/order', headers, body });
    await response.body.text();
  }
}
await Promise.all(Array.from({ length: Number(connections) }, worker));
await pool.close();
process.stdout.write(`${bodies.length}\n`);
