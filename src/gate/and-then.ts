/**
 * `next(value)` now when the value is here, or once its promise settles. The tool-call
 * path stays synchronous while the hooks answer synchronously: a promise per step costs
 * more than no-op hooks in a framework that tracks async context (docs/benchmarks.md#adapters).
 */
export function andThen<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<Awaited<R>> {
  // A promise that `next` returns is adopted by then(): the result is Awaited<R>, as declared.
  return value instanceof Promise ? (value.then(next) as Promise<Awaited<R>>) : next(value);
}
