/**
 * CPU-seconds by process group over a measured window, from Linux's /proc: what the service,
 * PostgreSQL, Elasticsearch and the benchmark itself each used while a workload ran, and the
 * machine's busy and idle time, so a figure per request or per filing can be worked out.
 *
 * A group is a set of processes picked in each of two snapshots (start and end of the window):
 * one process and its descendants (`{ pid }`, threads included, as /proc/<pid>/stat counts them),
 * every process of one name (`{ comm: 'postgres' }`), every process whose command line holds a
 * string (`{ cmdline: 'org.elasticsearch' }`), or this process (`'self'`, process.cpuUsage()).
 * A group's CPU is what its processes used between the snapshots, plus what the group's top
 * processes reaped from children that ended inside the window (PostgreSQL's backends of short
 * connections exit and vanish from /proc; their CPU lands in the postmaster's cutime/cstime).
 *
 * The parsing and the arithmetic are pure (tested in test/bench/process-cpu.test.ts); only
 * startCpuWindow reads /proc.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** One process's line of /proc/<pid>/stat, the fields this module needs, in clock ticks. */
export interface ProcStat {
  pid: number;
  /** The executable's name (field 2), e.g. `postgres` for every PostgreSQL process. */
  comm: string;
  ppid: number;
  /** When the process started (field 22), to tell a reused pid from the process seen before. */
  started: number;
  /** utime + stime (fields 14, 15): the process's own CPU, all its threads. */
  own: number;
  /** cutime + cstime (fields 16, 17): CPU of children it has waited for, theirs included. */
  reaped: number;
}

/** Parse /proc/<pid>/stat. The name sits in parentheses and may hold spaces or parentheses itself. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${JSON.stringify(text.slice(0, 80))}`);
  // The fields after the name, numbered from 3 (the state).
  const rest = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const field = (n: number): number => {
    const value = Number(rest[n - 3]);
    if (rest[n - 3] === undefined || !Number.isInteger(value))
      throw new Error(`/proc/<pid>/stat field ${n} is not a whole number in ${JSON.stringify(text.slice(0, 80))}`);
    return value;
  };
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: field(4),
    started: field(22),
    own: field(14) + field(15),
    reaped: field(16) + field(17),
  };
}

/** The machine's CPU time over all cores since boot, in clock ticks, from /proc/stat's `cpu` line. */
export interface MachineTicks {
  total: number;
  /** idle + iowait: time no process was running. */
  idle: number;
}

export function parseMachineTicks(procStat: string): MachineTicks {
  const line = procStat.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) throw new Error('/proc/stat has no aggregate "cpu" line');
  // user nice system idle iowait irq softirq steal; guest and guest_nice are already in user and nice.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 5 || ticks.some((t) => !Number.isInteger(t)))
    throw new Error(`/proc/stat's cpu line is not a list of tick counts: ${line}`);
  return { total: ticks.reduce((a, b) => a + b, 0), idle: ticks[3]! + ticks[4]! };
}

export type ProcessGroup = { pid: number } | { comm: string; cmdline?: string } | { cmdline: string } | 'self';

/** A process as a snapshot sees it: its stat and, when a group asks for it, its command line. */
export interface SeenProcess extends ProcStat {
  cmdline: string;
}

/**
 * The pids of `group` among `processes`: a `{ pid }` group is that process and its descendants;
 * otherwise the processes of that name, or whose command line holds that string, or both when both
 * are given (`{ comm: 'postgres', cmdline: ' ukcd_bench_full ' }`: the backends serving that
 * database, whose process title names it).
 */
export function membersOf(
  group: Exclude<ProcessGroup, 'self'>,
  processes: ReadonlyMap<number, SeenProcess>,
): Set<number> {
  if (!('pid' in group)) {
    const { comm, cmdline } = group as { comm?: string; cmdline?: string };
    const matches = (p: SeenProcess) =>
      (comm === undefined || p.comm === comm) && (cmdline === undefined || p.cmdline.includes(cmdline));
    return new Set([...processes.values()].filter(matches).map((p) => p.pid));
  }
  const members = new Set<number>();
  if (!processes.has(group.pid)) return members;
  members.add(group.pid);
  // Parents may come after their children in pid order: repeat until no process joins.
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes.values())
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.add(p.pid);
        grew = true;
      }
  }
  return members;
}

/** A group's processes in one snapshot. */
export interface Members {
  processes: ReadonlyMap<number, ProcStat>;
  members: ReadonlySet<number>;
}

/**
 * The clock ticks a group used between two snapshots: each member's own CPU since the first
 * (all of it for a process started in between), plus what each top member (one whose parent is
 * not in the group) reaped in between, less the CPU before the window of the members it reaped.
 */
export function ticksUsed(before: Members, after: Members): number {
  const earlier = (p: ProcStat): ProcStat | undefined => {
    const b = before.processes.get(p.pid);
    return b && b.started === p.started && before.members.has(p.pid) ? b : undefined;
  };
  let ticks = 0;
  const tops = new Set<number>();
  for (const pid of after.members) {
    const p = after.processes.get(pid)!;
    const b = earlier(p);
    ticks += p.own - (b?.own ?? 0);
    if (!after.members.has(p.ppid)) {
      tops.add(pid);
      ticks += p.reaped - (b?.reaped ?? 0);
    }
  }
  for (const pid of before.members) {
    const b = before.processes.get(pid)!;
    const still = after.processes.get(pid);
    const gone = !still || still.started !== b.started;
    // Its whole CPU (and what it had reaped) entered its parent's reaped count when it ended.
    if (gone && tops.has(b.ppid)) ticks -= b.own + b.reaped;
  }
  return ticks;
}

/** CPU-seconds of each group and of the machine over a window. */
export interface CpuUse {
  window_s: number;
  /** null: no process of the group was there at either end, so its CPU is unknown (not 0). */
  groups: Record<string, number | null>;
  /** All cores: seconds some process ran (busy) and none did (idle). */
  machine: { busy_s: number; idle_s: number };
}

interface Snapshot {
  processes: Map<number, SeenProcess>;
  machine: MachineTicks;
}

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const value = Number(answer.stdout?.trim());
    if (answer.status !== 0 || !Number.isInteger(value) || value <= 0)
      throw new Error(
        `cannot tell the clock tick rate for /proc's CPU times: getconf CLK_TCK said ${JSON.stringify(answer.stdout ?? answer.error?.message)}`,
      );
    ticksPerSecond = value;
  }
  return ticksPerSecond;
}

function snapshot(withCmdline: boolean): Snapshot {
  const processes = new Map<number, SeenProcess>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      const cmdline = withCmdline ? readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') : '';
      processes.set(stat.pid, { ...stat, cmdline });
    } catch (error) {
      // A process that ended between the listing and the read is simply not in this snapshot.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH')
        throw error;
    }
  }
  return { processes, machine: parseMachineTicks(readFileSync('/proc/stat', 'utf8')) };
}

/** Why CPU by process cannot be measured here, or null when it can. */
export function cpuByProcessUnavailable(): string | null {
  if (process.platform !== 'linux' || !existsSync('/proc/stat') || !existsSync(`/proc/${process.pid}/stat`))
    return `CPU by process is read from Linux's /proc, which this machine (${process.platform}) does not have`;
  return null;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Start measuring `groups`; stop() gives their CPU-seconds since. Throws at once where /proc is
 * missing; a group that matched no process at either end is null (unknown), not 0.
 */
export function startCpuWindow(groups: Record<string, ProcessGroup>): { stop(): CpuUse } {
  const unavailable = cpuByProcessUnavailable();
  if (unavailable) throw new Error(unavailable);
  const hz = clockTicksPerSecond();
  const withCmdline = Object.values(groups).some((g) => g !== 'self' && 'cmdline' in g && g.cmdline !== undefined);
  const ownStart = process.cpuUsage();
  const startedAt = performance.now();
  const before = snapshot(withCmdline);
  return {
    stop() {
      const after = snapshot(withCmdline);
      const own = process.cpuUsage(ownStart);
      const window_s = round((performance.now() - startedAt) / 1000, 3);
      const used: Record<string, number | null> = {};
      for (const [name, group] of Object.entries(groups)) {
        if (group === 'self') {
          used[name] = round((own.user + own.system) / 1e6, 3);
          continue;
        }
        const start = { processes: before.processes, members: membersOf(group, before.processes) };
        const end = { processes: after.processes, members: membersOf(group, after.processes) };
        used[name] = start.members.size === 0 && end.members.size === 0 ? null : round(ticksUsed(start, end) / hz, 3);
      }
      const total = after.machine.total - before.machine.total;
      const idle = after.machine.idle - before.machine.idle;
      return {
        window_s,
        groups: used,
        machine: { busy_s: round((total - idle) / hz, 3), idle_s: round(idle / hz, 3) },
      };
    },
  };
}

/**
 * The groups an endpoint benchmark measures around the service (`ukcd start`, process
 * `servicePid`) serving `database`: the service, PostgreSQL, Elasticsearch when it searches there,
 * and the benchmark itself.
 */
export function serviceCpuGroups(
  servicePid: number,
  database: string,
  elasticsearch: boolean,
): Record<string, ProcessGroup> {
  return {
    service: { pid: servicePid },
    postgres: { comm: 'postgres' },
    // Only the backends serving this database (their process title names it): what other sessions
    // on the shared server do is not in it, nor the server's background processes.
    postgres_this_db: { comm: 'postgres', cmdline: ` ${database} ` },
    ...(elasticsearch ? { elasticsearch: { cmdline: 'org.elasticsearch' } } : {}),
    bench: 'self',
  };
}

/**
 * The figures a benchmark records for a workload: CPU-seconds per group (and the machine's busy and
 * idle time) and CPU-ms per request per group (and of the busy machine).
 */
export function cpuPerRequest(
  use: CpuUse,
  requests: number,
): {
  cpu_window_s: number;
  cpu_s: Record<string, number | null>;
  cpu_ms_per_request: Record<string, number | null>;
} {
  const perRequest = (seconds: number | null) =>
    seconds !== null && requests > 0 ? round((seconds * 1000) / requests, 3) : null;
  return {
    cpu_window_s: use.window_s,
    cpu_s: { ...use.groups, machine_busy: use.machine.busy_s, machine_idle: use.machine.idle_s },
    cpu_ms_per_request: {
      ...Object.fromEntries(Object.entries(use.groups).map(([name, s]) => [name, perRequest(s)])),
      machine_busy: perRequest(use.machine.busy_s),
    },
  };
}
