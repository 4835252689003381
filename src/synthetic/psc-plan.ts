/**
 * The group structures of the synthetic PSC register, planned a block of company indices at a time
 * so that every company's PSCs can be worked out from (seed, index) with only its block's plan:
 *
 * - Each block's first few "stable" companies (incorporated before the PSC regime began, never
 *   dissolved before the horizon, so on every snapshot up to it) are the block's UK parents.
 * - The first five form a chain: each is controlled by the one before it, and the first by an
 *   overseas parent (even blocks) or by one of the neighbourhood's serial individuals (odd blocks).
 * - In every tenth block the sixth and seventh control each other: a cycle.
 * - The eighth is controlled by a super-secure PSC.
 * - Ordinary companies of the block that have a UK corporate parent pick one of these, so the
 *   parents have many subsidiaries and the chains fan out downwards.
 */
import { syntheticCompany } from './companies.ts';
import type { SyntheticCompany } from './companies.ts';
import { fastDayNumber } from './dates.ts';
import { statusOnDay } from './register-life.ts';

/** Company indices planned together. */
export const PSC_BLOCK = 1000;
/** Companies of a block that are UK parents. */
const STABLE_PER_BLOCK = 8;
const CHAIN_LENGTH = 5;
/** Every this many blocks, one has a cycle. */
const CYCLE_EVERY = 10;
/** Stable companies are on every snapshot up to this day; structures may break after it. */
const PSC_HORIZON = '2028-12-31';
const HORIZON_DAY = fastDayNumber(PSC_HORIZON);
/** Incorporated before this, a company has been on the register since before the PSC regime. */
const STABLE_BEFORE = '2015-01-01';

type PlanRole =
  /** Chain member `position` (0 at the top); its parent is the member before it (none at 0). */
  | { type: 'chain'; position: number; parent: SyntheticCompany | null }
  /** Controls and is controlled by `partner`. */
  | { type: 'cycle'; partner: SyntheticCompany }
  /** Controlled by a super-secure PSC. */
  | { type: 'super-secure' };

export interface BlockPlan {
  block: number;
  /** The block's UK parents, in index order. */
  parents: readonly SyntheticCompany[];
  roles: ReadonlyMap<number, PlanRole>;
}

function isStable(seed: number, company: SyntheticCompany): boolean {
  return (
    company.legalForm !== 'llp' &&
    company.incorporated < STABLE_BEFORE &&
    statusOnDay(seed, company, HORIZON_DAY).status !== null
  );
}

/** The plan of block `block`; only indices below `companies` take part. */
function blockPlan(seed: number, block: number, companies: number): BlockPlan {
  const parents: SyntheticCompany[] = [];
  const end = Math.min((block + 1) * PSC_BLOCK, companies);
  for (let index = block * PSC_BLOCK; index < end && parents.length < STABLE_PER_BLOCK; index++) {
    const company = syntheticCompany(seed, index);
    if (isStable(seed, company)) parents.push(company);
  }
  const roles = new Map<number, PlanRole>();
  for (let position = 0; position < Math.min(CHAIN_LENGTH, parents.length); position++) {
    roles.set(parents[position]!.index, {
      type: 'chain',
      position,
      parent: position === 0 ? null : parents[position - 1]!,
    });
  }
  const [a, b] = [parents[CHAIN_LENGTH], parents[CHAIN_LENGTH + 1]];
  if (block % CYCLE_EVERY === 0 && a && b) {
    roles.set(a.index, { type: 'cycle', partner: b });
    roles.set(b.index, { type: 'cycle', partner: a });
  }
  const secret = parents[CHAIN_LENGTH + 2];
  if (secret) roles.set(secret.index, { type: 'super-secure' });
  return { block, parents, roles };
}

/** Plans remembered one block at a time: companies are mostly asked for in index order. */
export class BlockPlans {
  private last: BlockPlan | null = null;

  constructor(
    private readonly seed: number,
    private readonly companies: number,
  ) {}

  of(index: number): BlockPlan {
    const block = Math.floor(index / PSC_BLOCK);
    if (this.last?.block !== block) this.last = blockPlan(this.seed, block, this.companies);
    return this.last;
  }
}
