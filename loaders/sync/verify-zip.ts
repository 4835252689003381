/**
 * A downloaded zip is checked whole before anything is loaded from it: its central directory
 * reads, it holds what its kind should (one CSV for a register file, filings for an accounts file,
 * one newline-delimited JSON file for a PSC snapshot file), and every member inflates to its
 * recorded size and CRC-32. A file cut short or damaged in transit
 * is caught here, named with the reason, rather than half-loaded.
 */
import { checkStreamedMember, openZipFile } from '../zip-reader.ts';
import type { ZipMember } from '../zip-reader.ts';

export type ZipKind = 'register' | 'accounts' | 'psc';

/** What a zip of each kind that holds one large file must hold, streamed to check it. */
const ONE_FILE: Partial<Record<ZipKind, { what: string; name: RegExp }>> = {
  register: { what: 'register CSV', name: /\.csv$/i },
  // The parts hold `psc-snapshot-…_NofM.txt`; the whole file's member has been .txt or .json.
  psc: { what: 'PSC snapshot file', name: /\.(txt|json|jsonl)$/i },
};

export interface ZipCheck {
  members: number;
  uncompressedBytes: number;
}

class ZipCheckError extends Error {}

export async function verifyZip(path: string, kind: ZipKind): Promise<ZipCheck> {
  let zip;
  try {
    zip = await openZipFile(path);
  } catch (error) {
    throw new ZipCheckError(`not a readable zip: ${message(error)}`);
  }
  let members = 0;
  let uncompressedBytes = 0;
  const streamed: ZipMember[] = [];
  const one = ONE_FILE[kind];
  try {
    for await (const member of zip.members()) {
      members++;
      if (one) {
        if (!one.name.test(member.name)) throw new ZipCheckError(`holds ${member.name}, not a ${one.what}`);
        streamed.push(member);
      } else {
        uncompressedBytes += (await member.read()).length;
      }
    }
  } catch (error) {
    throw error instanceof ZipCheckError ? error : new ZipCheckError(message(error));
  } finally {
    zip.close();
  }
  if (members === 0) throw new ZipCheckError(one ? `holds no ${one.what}` : 'holds no filings');
  if (one && members > 1) throw new ZipCheckError(`holds ${members} files, not one ${one.what}`);
  for (const member of streamed) {
    try {
      uncompressedBytes += await checkStreamedMember(path, member);
    } catch (error) {
      throw error instanceof ZipCheckError ? error : new ZipCheckError(message(error));
    }
  }
  return { members, uncompressedBytes };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
