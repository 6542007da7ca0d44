import { describe, expect, it } from 'vitest';
import { endpointPath, parseBaseUrl } from './serviceUrl.js';

describe('parseBaseUrl', () => {
  it('accepts https anywhere and http only to loopback', () => {
    expect(parseBaseUrl('https://collect.example.test').host).toBe('collect.example.test');
    for (const ok of [
      'http://127.0.0.1:8080',
      'http://localhost:3000',
      'http://[::1]:9000',
      'http://127.1.2.3',
    ])
      expect(() => parseBaseUrl(ok)).not.toThrow();
    for (const bad of [
      'http://collect.example.test',
      'http://10.0.0.1',
      'http://192.168.1.5:80',
      'ftp://x',
      'not a url',
      'https://user:pw@x.test',
    ]) {
      expect(() => parseBaseUrl(bad), bad).toThrow();
    }
  });
  it('keeps a path prefix before /v2', () => {
    expect(endpointPath(parseBaseUrl('https://x.test/api/'), '/v2/order')).toBe('/api/v2/order');
    expect(endpointPath(parseBaseUrl('https://x.test'), '/v2/order/payment')).toBe('/v2/order/payment');
  });
});
