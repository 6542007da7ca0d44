import { describe, expect, it } from 'vitest';
import { registry } from '../resources/registry.js';
import { callerRefusal, keyRefusal, ownHosts, route } from './requestGate.js';

describe('ownHosts', () => {
  it('names the address and port it listens on, localhost for a loopback one, and --allow-host names', () => {
    expect([...ownHosts({ address: '127.0.0.1', family: 'IPv4', port: 8787 })]).toEqual([
      '127.0.0.1:8787',
      'localhost:8787',
    ]);
    expect([...ownHosts({ address: '::1', family: 'IPv6', port: 9 })]).toEqual(['[::1]:9', 'localhost:9']);
    expect([...ownHosts({ address: '0.0.0.0', family: 'IPv4', port: 80 }, ['Sandbox'])]).toEqual(
      expect.arrayContaining(['sandbox:80', 'sandbox', 'localhost:80', '127.0.0.1:80', '[::1]:80']),
    );
    expect([...ownHosts({ address: '10.1.2.3', family: 'IPv4', port: 8787 })]).toEqual(['10.1.2.3:8787']);
  });
});

describe('callerRefusal', () => {
  const hosts = ownHosts({ address: '127.0.0.1', family: 'IPv4', port: 8787 });
  it('lets a program on this machine through, in any case of the name', () => {
    expect(callerRefusal({ host: 'LOCALHOST:8787' }, hosts)).toBeUndefined();
  });
  it('refuses any Origin, a missing Host, another host or another port', () => {
    for (const headers of [
      { host: '127.0.0.1:8787', origin: 'null' },
      {},
      { host: 'evil.example:8787' },
      { host: '127.0.0.1:8788' },
      { host: '127.0.0.1' },
    ]) {
      expect(callerRefusal(headers, hosts)?.status).toBe(403);
    }
  });
});

describe('route', () => {
  it('takes the five endpoints exactly as written, 405 with Allow for a known path, else 404', () => {
    expect(route(registry, 'PUT', '/v2/order/payment')).toMatchObject({ resource: { name: 'payment' } });
    expect(route(registry, 'DELETE', '/v2/order')).toMatchObject({
      refused: { status: 405, headers: { allow: 'POST, PUT' } },
    });
    for (const target of [
      '/v2/order?x=1',
      '/v2/order/',
      '/v2/./order',
      '/v2/%6frder',
      '/V2/order',
      'http://h/v2/order',
    ]) {
      expect(route(registry, 'PUT', target)).toMatchObject({ refused: { status: 404 } });
    }
  });
});

describe('keyRefusal', () => {
  it('wants Bearer and a key, and that key when one is set', () => {
    expect(keyRefusal(undefined, undefined)?.status).toBe(401);
    expect(keyRefusal('Bearer ', undefined)?.status).toBe(401);
    expect(keyRefusal('bearer abc', undefined)?.status).toBe(401);
    expect(keyRefusal('Bearer abc', undefined)).toBeUndefined();
    expect(keyRefusal('Bearer abc', 'other')?.status).toBe(401);
    expect(keyRefusal('Bearer other', 'other')).toBeUndefined();
  });
});
