/**
 * `ukcd keys issue|list|revoke`: the operator's API keys, on the store the environment configures
 * (DATABASE_URL, else PGlite in DATA_DIR). A new key is printed once, on stdout, and only its
 * hash is stored. Exit status: 0 done, 1 nothing matched, 2 unusable arguments.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { loadConfig } from '../config.ts';
import {
  PLAN_NAMES,
  PLANS,
  generateApiKey,
  hashApiKey,
  keyPrefix,
  looksLikeApiKey,
  usageMonth,
  type PlanName,
} from '../domain/api-keys.ts';
import { openStore } from '../composition/open-store.ts';
import type { ApiKeyRecord } from '../domain/api-keys.ts';
import type { KeyStore } from '../ports/keys.ts';

const USAGE = `usage:
  ukcd keys issue [--plan free|pro] [--email E]   issue a key (default plan: pro); printed once
  ukcd keys list [PREFIX]                         keys (whose prefix starts with PREFIX), with this month's usage
  ukcd keys revoke PREFIX|KEY                     revoke the keys whose prefix starts with PREFIX (9+ characters)`;

/** Shorter prefixes are refused, so that `revoke ukcd_` cannot revoke every key by accident. */
const MIN_REVOKE_PREFIX_LENGTH = 9;

type Parsed =
  | { command: 'issue'; plan: PlanName; email: string | null }
  | { command: 'list'; prefix: string | undefined }
  | { command: 'revoke'; target: string }
  | { command: 'help' };

export async function runKeysCommand(args: readonly string[]): Promise<number> {
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}${parsed ? '\n' : ''}${USAGE}\n`);
    return 2;
  }
  if (parsed.command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { sql, keys, location } = await openStore(loadConfig());
  try {
    process.stderr.write(`store: ${location}\n`);
    switch (parsed.command) {
      case 'issue':
        return await issue(keys, parsed.plan, parsed.email);
      case 'list':
        return await list(keys, parsed.prefix);
      case 'revoke':
        return await revoke(keys, parsed.target);
    }
  } finally {
    await sql.close();
  }
}

/** The command, or what is wrong with the arguments ('' when only the usage needs saying). */
function parse(args: readonly string[]): Parsed | string {
  const [command, ...rest] = args;
  if (command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  let values: { plan?: string | undefined; email?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: command === 'issue' ? { plan: { type: 'string' }, email: { type: 'string' } } : {},
    }));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  switch (command) {
    case 'issue': {
      if (positionals.length > 0) return `unexpected argument "${positionals[0]}"`;
      const plan = values.plan ?? 'pro';
      if (!isPlan(plan)) return `--plan must be one of ${PLAN_NAMES.join(', ')}, got "${plan}"`;
      const email = values.email ?? null;
      if (email !== null && !z.email().safeParse(email).success) return `--email is not an e-mail address: "${email}"`;
      return { command, plan, email };
    }
    case 'list':
      if (positionals.length > 1) return `unexpected argument "${positionals[1]}"`;
      return { command, prefix: positionals[0] };
    case 'revoke': {
      const [target, extra] = positionals;
      if (target === undefined) return 'revoke needs the prefix of the key(s) to revoke';
      if (extra !== undefined) return `unexpected argument "${extra}"`;
      if (target.length < MIN_REVOKE_PREFIX_LENGTH)
        return `refused: the prefix "${target}" is shorter than ${MIN_REVOKE_PREFIX_LENGTH} characters and could match many keys`;
      return { command, target };
    }
    default:
      return command === undefined ? '' : `unknown keys command "${command}"`;
  }
}

const isPlan = (plan: string): plan is PlanName => (PLAN_NAMES as string[]).includes(plan);

async function issue(keys: KeyStore, plan: PlanName, email: string | null): Promise<number> {
  const key = generateApiKey();
  const record = await keys.createKey({ hash: hashApiKey(key), prefix: keyPrefix(key), plan, email, clientIp: null });
  if (!record) throw new Error('the store refused a key without a limit');
  process.stdout.write(`${key}\n`);
  process.stderr.write(
    `issued a ${plan} key (${PLANS[plan].monthly_quota} requests a month), prefix ${record.prefix}` +
      `${email ? `, for ${email}` : ''}.\n` +
      'The key is shown once (on standard output): only its hash is stored, so it cannot be shown again.\n',
  );
  return 0;
}

async function list(keys: KeyStore, prefix: string | undefined): Promise<number> {
  const month = usageMonth(new Date());
  const rows = await keys.listKeys(month, prefix);
  process.stdout.write(
    table([
      ['prefix', 'plan', 'email', 'created', 'revoked', `used ${month}`],
      ...rows.map((k) => [...describe(k), `${k.used} / ${PLANS[k.plan].monthly_quota}`]),
    ]),
  );
  process.stderr.write(
    `${rows.length} key${rows.length === 1 ? '' : 's'}${prefix ? ` starting with ${prefix}` : ''}\n`,
  );
  return 0;
}

async function revoke(keys: KeyStore, target: string): Promise<number> {
  let prefix = target;
  if (looksLikeApiKey(target)) {
    // The whole key (say, one that leaked): find it by its hash and revoke by its prefix, which
    // names it alone (8 random characters: a clash is about one in 2 * 10^14).
    const found = await keys.findByHash(hashApiKey(target));
    if (!found) {
      process.stderr.write('no such key\n');
      return 1;
    }
    prefix = found.prefix;
  }
  const revoked = await keys.revokeKeys(prefix);
  if (revoked.length > 0) {
    process.stdout.write(table([['prefix', 'plan', 'email', 'created', 'revoked'], ...revoked.map(describe)]));
    process.stderr.write(`revoked ${revoked.length} key${revoked.length === 1 ? '' : 's'}\n`);
    return 0;
  }
  const matching = await keys.listKeys(usageMonth(new Date()), prefix);
  if (matching.length === 0) {
    process.stderr.write(`no key starts with ${prefix}\n`);
    return 1;
  }
  process.stderr.write(
    `nothing to do: the ${matching.length === 1 ? 'key' : `${matching.length} keys`} starting with ${prefix} ` +
      `${matching.length === 1 ? 'was' : 'were'} already revoked\n`,
  );
  return 0;
}

const time = (iso: string | null) => (iso === null ? '-' : iso.replace(/\.\d+Z$/, 'Z'));

function describe(key: ApiKeyRecord): string[] {
  return [key.prefix, key.plan, key.email ?? '-', time(key.created_at), time(key.revoked_at)];
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map(
      (row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}
