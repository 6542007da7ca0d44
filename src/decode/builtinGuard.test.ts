import { describe, expect, it } from 'vitest';
import { BuiltinSnapshot } from './builtinGuard.js';

describe('BuiltinSnapshot', () => {
  it('says nothing changed when nothing did', () => {
    expect(BuiltinSnapshot.take().restoreChanges()).toBeUndefined();
  });
  it('names an added, a replaced and a deleted property, and puts each back', () => {
    const includes = Array.prototype.includes;
    const keys = Object.keys;
    const proto = Object.prototype as Record<string, unknown>;
    const snapshot = BuiltinSnapshot.take();
    proto.isAdmin = true;
    expect(snapshot.restoreChanges()).toBe('Object.prototype.isAdmin was added');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    Array.prototype.includes = () => true;
    expect(snapshot.restoreChanges()).toBe('Array.prototype.includes was changed');
    expect(Array.prototype.includes).toBe(includes);
    delete (Object as { keys?: unknown }).keys;
    expect(snapshot.restoreChanges()).toBe('Object.keys was deleted');
    expect(Object.keys).toBe(keys);
    Object.setPrototypeOf(Array.prototype, { polluted: 1 });
    expect(snapshot.restoreChanges()).toBe('the prototype of Array.prototype was replaced');
    expect(Object.getPrototypeOf(Array.prototype)).toBe(Object.prototype);
  });
});
