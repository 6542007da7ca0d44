// A minimal stand-in for the service, in its own process: answers every request 200 at once,
// and tells the requests per second it saw between its first and last request (GET /_stats).
import { createServer } from 'node:http';

let count = 0;
let first = 0n;
let last = 0n;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/_stats') {
    const seconds = Number(last - first) / 1e9;
    res.end(JSON.stringify({ count, seconds, rate: count > 1 ? (count - 1) / seconds : 0 }));
    count = 0;
    return;
  }
  const now = process.hrtime.bigint();
  if (count === 0) first = now;
  last = now;
  count++;
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"message":"ok"}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
