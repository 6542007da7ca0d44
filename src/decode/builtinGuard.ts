/**
 * The built-in objects a `--transform` module could change under collect's feet (prototype
 * pollution: `Object.prototype.x = ...` makes every object of collect's own code have an `x`).
 * Taken before the module is loaded and compared after each call, so such a change is caught
 * before collect checks or sends anything with it.
 */
const GUARDED: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Promise.prototype', Promise.prototype],
  ['JSON', JSON],
  ['Object', Object],
  ['Array', Array],
];

interface Shape {
  name: string;
  target: object;
  proto: object | null;
  properties: Map<PropertyKey, PropertyDescriptor>;
}

function shapeOf([name, target]: [string, object]): Shape {
  const properties = new Map<PropertyKey, PropertyDescriptor>();
  for (const key of Reflect.ownKeys(target))
    properties.set(key, Reflect.getOwnPropertyDescriptor(target, key)!);
  return { name, target, proto: Reflect.getPrototypeOf(target), properties };
}

const same = (a: PropertyDescriptor, b: PropertyDescriptor | undefined) =>
  b !== undefined &&
  a.value === b.value &&
  a.get === b.get &&
  a.set === b.set &&
  a.writable === b.writable &&
  a.enumerable === b.enumerable &&
  a.configurable === b.configurable;

export class BuiltinSnapshot {
  private constructor(private readonly shapes: readonly Shape[]) {}

  static take(): BuiltinSnapshot {
    return new BuiltinSnapshot(GUARDED.map(shapeOf));
  }

  /**
   * What changed since the snapshot (e.g. `Object.prototype.polluted was added`), after putting
   * every guarded object back as it was, as far as it lets itself be; undefined when nothing changed.
   */
  restoreChanges(): string | undefined {
    let change: string | undefined;
    for (const { name, target, proto, properties } of this.shapes) {
      let kept = 0;
      for (const key of Reflect.ownKeys(target)) {
        const before = properties.get(key);
        if (before) kept++;
        if (same(Reflect.getOwnPropertyDescriptor(target, key)!, before)) continue;
        change ??= `${name}.${String(key)} was ${before ? 'changed' : 'added'}`;
        if (!Reflect.deleteProperty(target, key)) continue;
        if (before) Reflect.defineProperty(target, key, before);
      }
      if (kept !== properties.size) {
        for (const [key, before] of properties) {
          if (Object.hasOwn(target, key)) continue;
          change ??= `${name}.${String(key)} was deleted`;
          Reflect.defineProperty(target, key, before);
        }
      }
      if (Reflect.getPrototypeOf(target) !== proto) {
        change ??= `the prototype of ${name} was replaced`;
        Reflect.setPrototypeOf(target, proto);
      }
    }
    return change;
  }
}
