/**
 * Grouping records by a key into a Map: groups in the order their first record came, records in
 * their order within each group.
 */

/** `items` grouped by `keyOf`. */
export function groupBy<Item, Key>(items: Iterable<Item>, keyOf: (item: Item) => Key): Map<Key, Item[]> {
  return groupByEach(items, (item) => [keyOf(item)]);
}

/** `items` grouped by every key `keysOf` gives: an item with several keys is in each of their groups. */
export function groupByEach<Item, Key>(
  items: Iterable<Item>,
  keysOf: (item: Item, index: number) => Iterable<Key>,
): Map<Key, Item[]> {
  const groups = new Map<Key, Item[]>();
  let index = 0;
  for (const item of items) {
    for (const key of keysOf(item, index++)) {
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  }
  return groups;
}
