/** The first `count` items of a (possibly endless) stream of generated data. */
export function* limit<T>(items: Iterable<T>, count: number): Generator<T> {
  let n = 0;
  for (const item of items) {
    if (n++ >= count) return;
    yield item;
  }
}
