/** True for a thenable: the guard awaits only real promises, so synchronous stages and handlers stay cheap. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
