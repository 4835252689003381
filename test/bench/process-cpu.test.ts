/**
 * bench/process-cpu: parsing /proc's lines, picking a group's processes, and the CPU a group used
 * between two snapshots, reaped children included. One real window at the end reads this machine's /proc.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProcStat, SeenProcess } from '../../bench/process-cpu.ts';
import {
  cpuByProcessUnavailable,
  cpuPerRequest,
  membersOf,
  parseMachineTicks,
  parseProcStat,
  startCpuWindow,
  ticksUsed,
} from '../../bench/process-cpu.ts';

/** A /proc/<pid>/stat line with the fields this module reads set, the others as the kernel writes them. */
function statLine(
  pid: number,
  comm: string,
  ppid: number,
  utime: number,
  stime: number,
  cutime: number,
  cstime: number,
  started: number,
): string {
  return `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 1200 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 ${started} 123456 789 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0`;
}

const parsed: { name: string; line: string; want: ProcStat }[] = [
  {
    name: 'a postgres backend',
    line: statLine(28214, 'postgres', 28210, 150, 40, 0, 0, 9000),
    want: { pid: 28214, comm: 'postgres', ppid: 28210, started: 9000, own: 190, reaped: 0 },
  },
  {
    name: 'a postmaster with reaped children',
    line: statLine(28210, 'postgres', 1, 5, 3, 700, 120, 8000),
    want: { pid: 28210, comm: 'postgres', ppid: 1, started: 8000, own: 8, reaped: 820 },
  },
  {
    name: 'a name with spaces and a closing parenthesis',
    line: statLine(77, 'Web Content) x', 76, 1, 2, 3, 4, 5),
    want: { pid: 77, comm: 'Web Content) x', ppid: 76, started: 5, own: 3, reaped: 7 },
  },
  {
    name: 'a trailing newline',
    line: `${statLine(9, 'java', 1, 10, 20, 0, 0, 30)}\n`,
    want: { pid: 9, comm: 'java', ppid: 1, started: 30, own: 30, reaped: 0 },
  },
];
for (const { name, line, want } of parsed)
  test(`parseProcStat: ${name}`, () => assert.deepEqual(parseProcStat(line), want));

const malformed: { name: string; line: string; error: RegExp }[] = [
  { name: 'no name in parentheses', line: '12 postgres S 1 2 3', error: /not a \/proc\/<pid>\/stat line/ },
  {
    name: 'cut short before the times',
    line: '12 (postgres) S 1 12 12 0 -1 4194560',
    error: /field 22 is not a whole number/,
  },
  {
    name: 'a time that is not a number',
    line: statLine(12, 'x', 1, 1, 2, 3, 4, 5).replace(' 1 2 3 4 ', ' 1 two 3 4 '),
    error: /field 15/,
  },
];
for (const { name, line, error } of malformed)
  test(`parseProcStat refuses ${name}`, () => assert.throws(() => parseProcStat(line), error));

const machine: { name: string; text: string; want: { total: number; idle: number } | RegExp }[] = [
  {
    name: 'the aggregate line, guest time not counted twice',
    text: 'cpu  100 5 50 800 20 3 2 10 40 0\ncpu0 50 2 25 400 10 1 1 5 20 0\nintr 1\n',
    want: { total: 990, idle: 820 },
  },
  { name: 'an old kernel with four fields', text: 'cpu 10 0 5 85 \n', want: /not a list of tick counts/ },
  { name: 'no aggregate line', text: 'cpu0 1 2 3 4 5 6 7 8\n', want: /no aggregate "cpu" line/ },
];
for (const { name, text, want } of machine)
  test(`parseMachineTicks: ${name}`, () => {
    if (want instanceof RegExp) assert.throws(() => parseMachineTicks(text), want);
    else assert.deepEqual(parseMachineTicks(text), want);
  });

/** A snapshot from [pid, comm, ppid, own, reaped, started?, cmdline?] rows. */
type Row = [pid: number, comm: string, ppid: number, own: number, reaped: number, started?: number, cmdline?: string];
function seen(rows: Row[]): Map<number, SeenProcess> {
  return new Map(
    rows.map(([pid, comm, ppid, own, reaped, started = 1, cmdline = '']) => [
      pid,
      { pid, comm, ppid, own, reaped, started, cmdline },
    ]),
  );
}

const pick: { name: string; group: Parameters<typeof membersOf>[0]; rows: Row[]; want: number[] }[] = [
  {
    name: 'every postgres process, whatever its parent',
    group: { comm: 'postgres' },
    rows: [
      [10, 'postgres', 1, 0, 0],
      [11, 'postgres', 10, 0, 0],
      [12, 'node', 1, 0, 0],
      [13, 'postgres', 1, 0, 0],
    ],
    want: [10, 11, 13],
  },
  {
    name: 'the java process of Elasticsearch by its command line',
    group: { cmdline: 'org.elasticsearch' },
    rows: [
      [20, 'java', 1, 0, 0, 1, 'java -m org.elasticsearch.server/org.elasticsearch.bootstrap.Elasticsearch'],
      [21, 'java', 1, 0, 0, 1, 'java -jar other.jar'],
    ],
    want: [20],
  },
  {
    name: 'a process and its descendants, a child listed before its parent',
    group: { pid: 30 },
    rows: [
      [29, 'node', 1, 0, 0],
      [30, 'node', 29, 0, 0],
      [40, 'sh', 35, 0, 0],
      [35, 'node', 30, 0, 0],
      [36, 'node', 29, 0, 0],
    ],
    want: [30, 35, 40],
  },
  {
    name: 'the backends of one database, by name and process title',
    group: { comm: 'postgres', cmdline: ' hc_web ' },
    rows: [
      [10, 'postgres', 1, 0, 0, 1, '/usr/lib/postgresql/15/bin/postgres -D /var/tmp/data'],
      [11, 'postgres', 10, 0, 0, 1, 'postgres: ukcd hc_web 127.0.0.1(40312) idle'],
      [12, 'postgres', 10, 0, 0, 1, 'postgres: ukcd hc_web_2 127.0.0.1(40314) idle'],
      [13, 'postgres', 10, 0, 0, 1, 'postgres: walwriter'],
      [14, 'node', 1, 0, 0, 1, 'node bench/web.ts --database hc_web --index x'],
    ],
    want: [11],
  },
  { name: 'a process that is gone', group: { pid: 99 }, rows: [[30, 'node', 1, 0, 0]], want: [] },
];
for (const { name, group, rows, want } of pick)
  test(`membersOf: ${name}`, () =>
    assert.deepEqual(
      [...membersOf(group, seen(rows))].sort((a, b) => a - b),
      want,
    ));

const postgres = { comm: 'postgres' };
const windows: { name: string; before: Row[]; after: Row[]; want: number }[] = [
  {
    name: 'processes there throughout: what each used in between',
    before: [
      [10, 'postgres', 1, 100, 0],
      [11, 'postgres', 10, 50, 0],
      [12, 'node', 1, 999, 0],
    ],
    after: [
      [10, 'postgres', 1, 110, 0],
      [11, 'postgres', 10, 80, 0],
      [12, 'node', 1, 5000, 0],
    ],
    want: 10 + 30,
  },
  {
    name: 'a backend started in the window counts whole',
    before: [[10, 'postgres', 1, 100, 0]],
    after: [
      [10, 'postgres', 1, 100, 0],
      [14, 'postgres', 10, 25, 0, 7],
    ],
    want: 25,
  },
  {
    name: 'a backend started and ended in the window counts through the postmaster',
    before: [[10, 'postgres', 1, 100, 40]],
    after: [[10, 'postgres', 1, 101, 75]],
    want: 1 + 35,
  },
  {
    name: 'a backend that ended in the window: only its CPU after the start',
    before: [
      [10, 'postgres', 1, 100, 40],
      [11, 'postgres', 10, 60, 0],
    ],
    // It used 20 more, then ended: the postmaster reaped its 80.
    after: [[10, 'postgres', 1, 100, 120]],
    want: 20,
  },
  {
    name: 'a reused pid is another process',
    before: [
      [10, 'postgres', 1, 100, 0],
      [11, 'postgres', 10, 60, 0, 5],
    ],
    // 11 ended (reaped 70) and a new backend got its pid, using 8 so far.
    after: [
      [10, 'postgres', 1, 100, 70],
      [11, 'postgres', 10, 8, 0, 900],
    ],
    want: 10 + 8,
  },
  {
    name: 'two servers, each postmaster its own top',
    before: [
      [10, 'postgres', 1, 0, 0],
      [20, 'postgres', 1, 0, 5],
      [21, 'postgres', 20, 3, 0],
    ],
    after: [
      [10, 'postgres', 1, 2, 10],
      [20, 'postgres', 1, 0, 9],
    ],
    want: 2 + 10 + 1,
  },
];
for (const { name, before, after, want } of windows)
  test(`ticksUsed: ${name}`, () => {
    const start = seen(before);
    const end = seen(after);
    assert.equal(
      ticksUsed(
        { processes: start, members: membersOf(postgres, start) },
        { processes: end, members: membersOf(postgres, end) },
      ),
      want,
    );
  });

test('cpuPerRequest: seconds per group and the machine, milliseconds a request; none without requests', () => {
  const use = {
    window_s: 10.02,
    groups: { service: 6.5, postgres: 2, bench: 1.25, elasticsearch: null },
    machine: { busy_s: 19, idle_s: 1 },
  };
  assert.deepEqual(cpuPerRequest(use, 5000), {
    cpu_window_s: 10.02,
    cpu_s: { service: 6.5, postgres: 2, bench: 1.25, elasticsearch: null, machine_busy: 19, machine_idle: 1 },
    cpu_ms_per_request: { service: 1.3, postgres: 0.4, bench: 0.25, elasticsearch: null, machine_busy: 3.8 },
  });
  assert.deepEqual(cpuPerRequest(use, 0).cpu_ms_per_request, {
    service: null,
    postgres: null,
    bench: null,
    elasticsearch: null,
    machine_busy: null,
  });
});

test(
  'a real window on this machine: a child that ended in it counts through its parent, a group with no process is unknown (null), not 0',
  { skip: cpuByProcessUnavailable() ?? false },
  async () => {
    const { spawn } = await import('node:child_process');
    const window = startCpuWindow({ tree: { pid: process.pid }, bench: 'self' });
    // The child burns 0.3 CPU-seconds of its own, however busy the machine, then ends; this process reaps it.
    const child = spawn(process.execPath, [
      '-e',
      'const s = process.cpuUsage(); for (let u = s; u.user + u.system < 3e5; u = process.cpuUsage(s));',
    ]);
    await new Promise((done) => child.once('exit', done));
    const use = window.stop();
    assert.ok(
      use.groups.tree! >= 0.3 + use.groups.bench! - 0.05,
      `the tree used ${use.groups.tree} CPU-s, this process ${use.groups.bench}`,
    );
    assert.ok(use.window_s > 0 && use.machine.busy_s >= 0.3);
    assert.equal(startCpuWindow({ nobody: { comm: 'no-such-process-name' } }).stop().groups.nobody, null);
  },
);
