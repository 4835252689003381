/**
 * The service as the operator runs it (`bin/ukcd.mjs start`), in its own process on a free port,
 * for the benchmarks that measure it under load from outside (bench/full-scale, bench/web).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export interface Service {
  url: string;
  child: ChildProcess;
}

/** Start `ukcd start` with `env` (PORT is chosen by the system) and wait until it says where it serves. */
export function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  return startServiceProcess([join(root, 'bin', 'ukcd.mjs'), 'start'], env);
}

/** Start Node with `args` (a script that serves the app and says so, as `ukcd start` does) and wait until it says where. */
export async function startServiceProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Service> {
  const child = spawn(process.execPath, args, {
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((ready, fail) => {
    child.stderr!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /serving on (http:\/\/\S+)/.exec(output);
      if (match) ready(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => fail(new Error(`the service exited ${code}:\n${output}`)));
  });
  return { url, child };
}

/** Stop the service (SIGTERM, as the operator would) and wait for it to exit. */
export async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = new Promise((done) => service.child.once('exit', done));
  service.child.kill('SIGTERM');
  await exited;
}
