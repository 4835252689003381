/**
 * An adapter with each of its promise-returning methods' rejections passed through `translate`:
 * how an adapter's driver errors become the port's errors in one place, instead of a try/catch in
 * every method. Generators and plain values pass through untouched.
 */
export function translateRejections<T extends object>(adapter: T, translate: (error: unknown) => unknown): T {
  const translated: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(adapter)) {
    translated[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            const result: unknown = (value as (...a: unknown[]) => unknown).apply(adapter, args);
            return result instanceof Promise
              ? result.catch((error: unknown) => {
                  throw translate(error);
                })
              : result;
          }
        : value;
  }
  return translated as T;
}
