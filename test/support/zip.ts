import { createWriteStream } from 'node:fs';
import yazl from 'yazl';

/**
 * A zip of the given members, in the order given, as the bulk files are. A list of pairs may name
 * a member more than once, as a bulk zip can.
 */
export async function writeZip(
  path: string,
  members: Record<string, Buffer> | readonly (readonly [name: string, bytes: Buffer])[],
): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Array.isArray(members) ? members : Object.entries(members)) zip.addBuffer(bytes, name);
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject);
  });
}
