import { createWriteStream } from 'node:fs';
import yazl from 'yazl';

/** A zip of the given members, as the bulk files are. */
export async function writeZip(path: string, members: Record<string, Buffer>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(members)) zip.addBuffer(bytes, name);
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject);
  });
}
