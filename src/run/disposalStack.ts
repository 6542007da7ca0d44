/**
 * What a run holds, released in reverse order of taking on every way out (a small
 * AsyncDisposableStack: Node 20 has none). Every release runs even when one before it threw;
 * the first error is thrown once all ran, the others attached as its `suppressed`.
 */
export class DisposalStack {
  private readonly releases: (() => unknown)[] = [];
  private disposed = false;

  /** Holds `resource` until the stack is disposed, then releases it with `release`; returns it. */
  adopt<T>(resource: T, release: (resource: T) => unknown): T {
    this.defer(() => release(resource));
    return resource;
  }

  /** Runs `release` when the stack is disposed, before everything taken earlier. */
  defer(release: () => unknown): void {
    if (this.disposed) throw new Error('the run has already released what it held');
    this.releases.push(release);
  }

  /** Releases everything, last taken first. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    while (this.releases.length > 0) {
      try {
        await this.releases.pop()!();
      } catch (cause) {
        errors.push(cause);
      }
    }
    if (errors.length === 0) return;
    const [first, ...rest] = errors;
    if (rest.length > 0 && first instanceof Error) Object.assign(first, { suppressed: rest });
    throw first;
  }
}
