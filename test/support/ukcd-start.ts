/**
 * `ukcd start` as operators run it, in a process of its own, for the tests that stop its servers
 * under it: resolves with its URL once it serves (give PORT 0 for any free port).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './samples.ts';

export interface Service {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

export async function startService(env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/ukcd.mjs'), 'start'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output.join('')}`)), 120_000);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      output.push(chunk);
      const m = /serving on (http:\/\/\S+?) /.exec(output.join(''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`the service exited:\n${output.join('')}`)));
  });
  return { url, child, output, exited };
}
