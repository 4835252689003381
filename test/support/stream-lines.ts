/**
 * Stream events as the Companies House Streaming API sends them, one JSON object a line, from the
 * files in test/support/streams/ (a stream's lines in the order they were published).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';

/** The events of `test/support/streams/<stream>.jsonl`, blank lines (heartbeats) left out. */
export function streamEvents(stream: string): StreamEvent[] {
  return readFileSync(join(import.meta.dirname, 'streams', `${stream}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StreamEvent);
}
