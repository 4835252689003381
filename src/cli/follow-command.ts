/**
 * `ukcd follow`: the follower in a process of its own (PostgreSQL deployments; on the embedded
 * store `ukcd start` follows in the service's process). Runs until SIGTERM or SIGINT, then gives
 * its leases up, so another follower takes the streams over at once.
 */
import { loadConfig } from '../config.ts';
import { followStreams } from '../composition/follow-streams.ts';
import { openStore } from '../composition/open-store.ts';

export async function runFollowCommand(args: readonly string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write(
      `ukcd follow takes no arguments, got "${args.join(' ')}": it is configured by CH_STREAM_KEY, CH_STREAM_URL and CH_STREAMS\n`,
    );
    return 2;
  }
  const config = loadConfig();
  if (!config.CH_STREAM_KEY) {
    process.stderr.write(
      'ukcd follow needs CH_STREAM_KEY, the Companies House stream key (docs/following-streams.md)\n',
    );
    return 2;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const opened = await openStore(config);
  log(`store: ${opened.location}`);
  const follower = followStreams(config, opened, { log })!;
  const stopping = new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const ended = await Promise.race([stopping, follower.done.then(() => null)]);
  if (ended) log(`${ended}: stopping`);
  await follower.stop();
  await opened.sql.close();
  log('stopped');
  return 0;
}
