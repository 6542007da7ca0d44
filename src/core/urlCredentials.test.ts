import { describe, expect, it } from 'vitest';
import { maskUrlCredentials } from './urlCredentials.js';

describe('maskUrlCredentials', () => {
  it.each([
    ['postgres://collect:s3cret@db.internal:5432/collect', 'postgres://collect:***@db.internal:5432/collect'],
    ['--state=postgresql://u:p%40ss@h/db?sslmode=require', '--state=postgresql://u:***@h/db?sslmode=require'],
    ['postgres://u:raw@pass@h/db', 'postgres://u:***@h/db'],
    [
      'postgres://collect@h/db?password=s3cret&sslmode=require',
      'postgres://collect@h/db?password=***&sslmode=require',
    ],
    ["host=h user=u password='s3 cret' dbname=d", 'host=h user=u password=*** dbname=d'],
    [
      'collect backfill exports/ --state postgres://a:b@h/d --base-url https://collect.example.com',
      'collect backfill exports/ --state postgres://a:***@h/d --base-url https://collect.example.com',
    ],
  ])('%s', (text, masked) => {
    expect(maskUrlCredentials(text)).toBe(masked);
  });

  it('leaves texts without credentials alone', () => {
    for (const text of [
      'https://collect.example.com/v2/order',
      'postgres://collect@h/db',
      'a user:name@example.com mail',
      'C:\\exports\\orders.csv',
    ])
      expect(maskUrlCredentials(text)).toBe(text);
  });
});
