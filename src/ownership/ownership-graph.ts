/**
 * The ownership graph around one company: who controls it, who controls them, up to the ultimate
 * controllers (up); the companies it controls, and theirs (down); or both. The reader reads the
 * records around the company in one statement (OwnershipReader.ownershipAround); the walk here
 * takes them level by level, each company's records once.
 *
 * Nodes are companies (on the register), and the PSCs that are not a company on the register:
 * individuals, corporate entities and legal persons (overseas or unresolved), super-secure PSCs,
 * and the statements a company makes instead of naming a PSC. Edges run from a controller to the
 * company it controls, with the natures of control in words and their bands. A cycle (a company
 * controlling itself through others) is reported, never walked twice; the graph is capped so that a
 * controller of fifty thousand companies cannot blow up an answer.
 */
import type { ControlBands } from './natures.ts';
import { controlBand, naturesInWords, statementMeaning, SUPER_SECURE_WORDS } from './natures.ts';
import type {
  ControlRecord,
  LevelledControlRecord,
  OwnershipNeighbourhood,
  OwnershipReader,
  RegisteredCompany,
} from '../ports/ownership.ts';
import { pscIdentityVerification, statementWords } from './psc-view.ts';
import type { IdentityVerification } from '../domain/officers.ts';

export const OWNERSHIP_DIRECTIONS = ['up', 'down', 'both'] as const;
type OwnershipDirection = (typeof OWNERSHIP_DIRECTIONS)[number];

/** Levels walked each way: 1 reads the company's own PSCs (up) or the companies it controls (down). */
export const OWNERSHIP_DEPTH = { min: 1, max: 10, default: 5 } as const;

/** At most this many edges in an answer; past it the walk stops and says `truncated`. */
export const MAX_OWNERSHIP_EDGES = 500;

/**
 * A controller in the answer that controls more than this many companies across the register is
 * flagged (many_companies_under_one_controller): formation agents, nominee shareholders and large
 * groups. 25 is well past a family's or an ordinary group's few companies.
 */
export const MANY_COMPANIES_THRESHOLD = 25;

export const OWNERSHIP_NODE_KINDS = [
  'company',
  'individual',
  'corporate_entity',
  'legal_person',
  'super_secure',
  'statement',
  'exemption',
  'other',
] as const;
type OwnershipNodeKind = (typeof OWNERSHIP_NODE_KINDS)[number];

/** Whether a company's own PSCs were read: found some, found none, or not read (depth, or walked down). */
export const PSC_RECORD_STATES = ['found', 'none', 'not_read'] as const;
type PscRecordState = (typeof PSC_RECORD_STATES)[number];

export interface OwnershipNode {
  /** "company:00000001"; others numbered in the order found ("person:3", "statement:7"). */
  id: string;
  kind: OwnershipNodeKind;
  /** The PSC's kind as filed; null for a company. */
  psc_kind: string | null;
  name: string | null;
  /** A company's number; for a statement or an exemption, the company it is about. */
  company_number: string | null;
  /** A company's register status. */
  status: string | null;
  /** A company's own PSCs: read and found, read and none held, or not read. Null for other nodes. */
  psc_records: PscRecordState | null;
  /** Where a corporate entity or legal person is registered or governed, as filed. */
  country: string | null;
  /** That country is outside the UK; null for nodes that are not entities. */
  overseas: boolean | null;
  /** An entity's registration number as filed (a UK one not on the register stays an entity). */
  registration_number: string | null;
  legal_form: string | null;
  nationality: string | null;
  country_of_residence: string | null;
  birth_year: number | null;
  birth_month: number | null;
  /** A beneficial owner of a registered overseas entity. */
  beneficial_owner: boolean;
  /** A statement's or an exemption's code as filed. */
  statement: string | null;
  /** A statement, an exemption or a super-secure PSC in words. */
  words: string | null;
  /** For a controller: how many companies it controls now, across the register; null when not counted. */
  controls: number | null;
}

export interface OwnershipEdge {
  /** The controller's node id. */
  from: string;
  /** The controlled company's node id. */
  to: string;
  /** The PSC record's id within the controlled company. */
  psc_id: string;
  natures: { code: string; words: string }[];
  bands: ControlBands;
  notified_on: string | null;
  /** The PSC's identity verification as filed (psc-view.ts); null when none is. */
  identity_verification: IdentityVerification | null;
}

export interface OwnershipCycle {
  /** The companies around the cycle, each controlling the next, the last controlling the first. */
  companies: string[];
  /** The edge whose walk met a company already reached: the one that closes the cycle. */
  closing_edge: { from: string; to: string };
}

interface OwnershipFlags {
  /** A corporate entity or legal person registered outside the UK controls a company up the chain. */
  overseas_parent: boolean;
  circular_ownership: boolean;
  super_secure_psc: boolean;
  /** A statement says a controller exists but is not named or not fully (natures.ts STATEMENTS). */
  psc_details_withheld: boolean;
  /** A controller in the answer controls more than MANY_COMPANIES_THRESHOLD companies. */
  many_companies_under_one_controller: boolean;
  /** A company in the answer states it has no registrable person or entity with significant control. */
  no_registrable_psc: boolean;
}

export interface OwnershipGraph {
  direction: OwnershipDirection;
  depth: number;
  /** The company asked about first, then in the order found. */
  nodes: OwnershipNode[];
  edges: OwnershipEdge[];
  /** Up: the ids where the chain ends — persons, entities, super-secure PSCs, statements, exemptions, and companies holding no PSC records. */
  ultimate_controllers: string[];
  cycles: OwnershipCycle[];
  flags: OwnershipFlags;
  /** The edge cap was reached: there is more than is shown. */
  truncated: boolean;
  limits: { max_edges: number; many_companies: number };
}

/** What the walk reads: the records around a company, in one read (src/ports/ownership.ts). */
export type OwnershipSource = Pick<OwnershipReader, 'ownershipAround'>;

export interface WalkOptions {
  direction: OwnershipDirection;
  depth: number;
  maxEdges?: number;
  manyCompanies?: number;
}

const companyId = (number: string) => `company:${number}`;

/** Collects nodes and edges as the walk finds them, merging one person found twice. */
class GraphBuilder {
  readonly nodes = new Map<string, OwnershipNode>();
  readonly edges = new Map<string, OwnershipEdge>();
  /** The person_key a person or entity node was merged by, for the count of what it controls. */
  readonly personKeys = new Map<string, string>();
  /** Edges found pointing at a company already reached: each may close a cycle. */
  readonly revisits: OwnershipEdge[] = [];
  /** Nodes found as controllers walking up. */
  readonly upward = new Set<string>();
  truncated = false;
  private counter = 0;
  private readonly byPersonKey = new Map<string, string>();

  constructor(private readonly maxEdges: number) {}

  get room(): number {
    return this.maxEdges - this.edges.size;
  }

  company(number: string, name: string | null = null): OwnershipNode {
    const id = companyId(number);
    let node = this.nodes.get(id);
    if (!node) {
      node = { ...blankNode(id, 'company'), company_number: number, name, psc_records: 'not_read' };
      this.nodes.set(id, node);
    } else if (node.name === null && name !== null) node.name = name;
    return node;
  }

  /** The controller a PSC record names: a company on the register, else a person or entity node. */
  controller(psc: ControlRecord): OwnershipNode {
    if (psc.resolved_company_number !== null)
      return this.company(psc.resolved_company_number, psc.resolved_company_name);
    const kind = nodeKind(psc);
    // One person across companies: the same person_key (and, for an entity, the same country).
    const mergeKey =
      psc.person_key === null || kind === 'super_secure' || kind === 'other'
        ? null
        : `${psc.person_key}|${kind === 'individual' ? '' : (psc.country ?? '')}`;
    const known = mergeKey === null ? undefined : this.byPersonKey.get(mergeKey);
    if (known) return this.nodes.get(known)!;
    const id = `${kind === 'individual' ? 'person' : kind === 'super_secure' || kind === 'other' ? 'psc' : 'entity'}:${++this.counter}`;
    const node: OwnershipNode = {
      ...blankNode(id, kind),
      psc_kind: psc.kind,
      name: psc.name,
      beneficial_owner: psc.beneficial_owner,
      ...(kind === 'individual'
        ? {
            nationality: psc.nationality,
            country_of_residence: psc.country_of_residence,
            birth_year: psc.birth_year,
            birth_month: psc.birth_month,
          }
        : {}),
      ...(kind === 'corporate_entity' || kind === 'legal_person'
        ? {
            country: psc.country,
            overseas: psc.overseas,
            registration_number: psc.identification?.registration_number ?? null,
            legal_form: psc.identification?.legal_form ?? null,
          }
        : {}),
      ...(kind === 'super_secure' ? { words: SUPER_SECURE_WORDS } : {}),
    };
    this.nodes.set(id, node);
    if (mergeKey !== null) {
      this.byPersonKey.set(mergeKey, id);
      this.personKeys.set(id, psc.person_key!);
    }
    return node;
  }

  /** A statement or an exemption: a node about its company, not a controller of it. */
  statement(psc: ControlRecord): OwnershipNode {
    const kind = psc.kind_class === 'exemption' ? 'exemption' : 'statement';
    const id = `${kind}:${++this.counter}`;
    const node: OwnershipNode = {
      ...blankNode(id, kind),
      psc_kind: psc.kind,
      company_number: psc.company_number,
      ...statementWords(psc),
    };
    this.nodes.set(id, node);
    return node;
  }

  /** No room left for this record's edge (one already in the graph needs none): the answer is cut here. */
  full(psc: ControlRecord): boolean {
    if (this.room > 0 || this.edges.has(edgeKey(psc))) return false;
    this.truncated = true;
    return true;
  }

  /** Adds the record's edge; 'known' when it is already in the graph. */
  edge(from: OwnershipNode, psc: ControlRecord): OwnershipEdge | 'known' {
    const key = edgeKey(psc);
    if (this.edges.has(key)) return 'known';
    const edge: OwnershipEdge = {
      from: from.id,
      to: companyId(psc.company_number),
      psc_id: psc.psc_id,
      natures: naturesInWords(psc.natures_of_control),
      bands: controlBand(psc.natures_of_control),
      notified_on: psc.notified_on,
      identity_verification: pscIdentityVerification(psc),
    };
    this.edges.set(key, edge);
    return edge;
  }
}

/** A PSC record is one edge: its company and its id there. */
function edgeKey(psc: ControlRecord): string {
  return `${psc.company_number}/${psc.psc_id}`;
}

function blankNode(id: string, kind: OwnershipNodeKind): OwnershipNode {
  return {
    id,
    kind,
    psc_kind: null,
    name: null,
    company_number: null,
    status: null,
    psc_records: null,
    country: null,
    overseas: null,
    registration_number: null,
    legal_form: null,
    nationality: null,
    country_of_residence: null,
    birth_year: null,
    birth_month: null,
    beneficial_owner: false,
    statement: null,
    words: null,
    controls: null,
  };
}

function nodeKind(psc: ControlRecord): OwnershipNodeKind {
  switch (psc.kind_class) {
    case 'individual':
      return 'individual';
    case 'corporate':
      return 'corporate_entity';
    case 'legal_person':
      return 'legal_person';
    case 'super_secure':
      return 'super_secure';
    case 'statement':
      return 'statement';
    case 'exemption':
      return 'exemption';
    default:
      return 'other';
  }
}

/** Records by level, in the reader's order within each. */
function byLevel(records: readonly LevelledControlRecord[]): Map<number, LevelledControlRecord[]> {
  const levels = new Map<number, LevelledControlRecord[]>();
  for (const record of records) {
    const level = levels.get(record.level);
    if (level) level.push(record);
    else levels.set(record.level, [record]);
  }
  return levels;
}

/**
 * Up: at each level, the current records of the companies first reached at the last one (the
 * reader's rows for a company reached again, by a cycle or a longer path, are passed over).
 */
function walkUp(graph: GraphBuilder, records: readonly LevelledControlRecord[], root: string, depth: number): void {
  const levels = byLevel(records);
  const reached = new Set([root]);
  let frontier = [root];
  for (let level = 1; level <= depth && frontier.length > 0 && !graph.truncated; level++) {
    const walking = new Set(frontier);
    const pscs = (levels.get(level) ?? []).filter((psc) => walking.has(psc.company_number));
    const withRecords = new Set(pscs.map((psc) => psc.company_number));
    for (const number of frontier) graph.company(number).psc_records = withRecords.has(number) ? 'found' : 'none';
    const next: string[] = [];
    for (const psc of pscs) {
      if (psc.kind_class === 'statement' || psc.kind_class === 'exemption') {
        graph.upward.add(graph.statement(psc).id);
        continue;
      }
      if (graph.full(psc)) break;
      const controller = graph.controller(psc);
      const edge = graph.edge(controller, psc);
      graph.upward.add(controller.id);
      if (controller.kind !== 'company' || edge === 'known') continue;
      const number = controller.company_number!;
      if (reached.has(number)) graph.revisits.push(edge);
      else {
        reached.add(number);
        next.push(number);
      }
    }
    frontier = next;
  }
}

/**
 * Down: at each level, the records naming as controller a company first reached at the last one;
 * a company not on the register is shown but not walked from.
 */
function walkDown(graph: GraphBuilder, records: readonly LevelledControlRecord[], root: string, depth: number): void {
  const levels = byLevel(records);
  const reached = new Set([root]);
  let frontier = [root];
  for (let level = 1; level <= depth && frontier.length > 0 && !graph.truncated; level++) {
    const walking = new Set(frontier);
    const pscs = (levels.get(level) ?? []).filter((psc) => walking.has(psc.registered_company_number!));
    const next: string[] = [];
    for (const psc of pscs) {
      if (graph.full(psc)) break;
      const controller = graph.company(psc.registered_company_number!);
      const edge = graph.edge(controller, psc);
      graph.company(psc.company_number);
      if (edge === 'known') continue;
      if (reached.has(psc.company_number)) graph.revisits.push(edge);
      else {
        reached.add(psc.company_number);
        if (psc.company_name !== null) next.push(psc.company_number);
      }
    }
    frontier = next;
  }
}

/**
 * The cycles among the companies of the graph: for each edge that met a company already reached,
 * the path back from where it points to where it starts, when there is one. A cycle reached from
 * several of its edges is reported once.
 */
export function findCycles(edges: readonly OwnershipEdge[], revisits: readonly OwnershipEdge[]): OwnershipCycle[] {
  const controls = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!from.startsWith('company:')) continue;
    controls.set(from, [...(controls.get(from) ?? []), to]);
  }
  const cycles: OwnershipCycle[] = [];
  const seen = new Set<string>();
  for (const closing of revisits) {
    const path = pathBetween(controls, closing.to, closing.from);
    if (path === null) continue;
    // from controls to, which controls … back to from.
    const companies = [closing.from, ...path.slice(0, -1)].map((id) => id.slice('company:'.length));
    const key = [...companies].sort().join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    cycles.push({ companies, closing_edge: { from: closing.from, to: closing.to } });
  }
  return cycles;
}

/** The nodes from `start` to `goal` following control (breadth first, so the shortest); null when none. */
function pathBetween(controls: ReadonlyMap<string, string[]>, start: string, goal: string): string[] | null {
  if (start === goal) return [start];
  const cameFrom = new Map<string, string>([[start, start]]);
  let level = [start];
  while (level.length > 0) {
    const next: string[] = [];
    for (const node of level)
      for (const child of controls.get(node) ?? []) {
        if (cameFrom.has(child)) continue;
        cameFrom.set(child, node);
        if (child === goal) {
          const path = [goal];
          for (let at = goal; at !== start;) path.unshift((at = cameFrom.get(at)!));
          return path;
        }
        next.push(child);
      }
    level = next;
  }
  return null;
}

/**
 * Walk the ownership graph of a company on the register: one read of the records around it, then
 * the walk. Null when the company is not on the register.
 */
export async function walkOwnership(
  source: OwnershipSource,
  companyNumber: string,
  options: WalkOptions,
): Promise<(OwnershipGraph & { root: RegisteredCompany }) | null> {
  const maxEdges = options.maxEdges ?? MAX_OWNERSHIP_EDGES;
  const { direction, depth } = options;
  const around = await source.ownershipAround(companyNumber, {
    up: direction === 'down' ? 0 : depth,
    down: direction === 'up' ? 0 : depth,
    maxRecords: readLimit(maxEdges),
  });
  if (around === null) return null;
  return { root: around.root, ...ownershipGraph(around, { ...options, maxEdges }) };
}

/**
 * How many records the walk reads each way for a cap of `maxEdges`: more than the cap, because a
 * company reached again (a cycle, a diamond, a longer path) is read again at each level it is
 * reached; a way that reads this many may have more, and the answer says truncated.
 */
function readLimit(maxEdges: number): number {
  return maxEdges * 2;
}

/** The graph of the records around a company (ownershipAround's answer). */
function ownershipGraph(around: OwnershipNeighbourhood, options: WalkOptions): OwnershipGraph {
  const { direction, depth } = options;
  const maxEdges = options.maxEdges ?? MAX_OWNERSHIP_EDGES;
  const many = options.manyCompanies ?? MANY_COMPANIES_THRESHOLD;
  const root = around.root.company_number;
  const graph = new GraphBuilder(maxEdges);
  const rootNode = graph.company(root, around.root.name);
  rootNode.status = around.root.status;
  if (direction !== 'down') walkUp(graph, around.up, root, depth);
  if (direction !== 'up') walkDown(graph, around.down, root, depth);
  // A way read to the limit may hold more than was read.
  const limit = readLimit(maxEdges);
  if (around.up.length > limit || around.down.length > limit) graph.truncated = true;

  const nodes = [...graph.nodes.values()];
  const edges = [...graph.edges.values()];
  nameCompanies(around, nodes, root);
  countControlled(around, graph, nodes, edges, root);

  const cycles = findCycles(edges, graph.revisits);
  const statements = nodes.filter((n) => n.kind === 'statement' && n.statement !== null);
  const upward = nodes.filter((n) => graph.upward.has(n.id));
  return {
    direction,
    depth,
    nodes,
    edges,
    ultimate_controllers: upward.filter((n) => n.kind !== 'company' || n.psc_records === 'none').map((n) => n.id),
    cycles,
    flags: {
      overseas_parent: upward.some(
        (n) => (n.kind === 'corporate_entity' || n.kind === 'legal_person') && n.overseas === true,
      ),
      circular_ownership: cycles.length > 0,
      super_secure_psc: nodes.some((n) => n.kind === 'super_secure'),
      psc_details_withheld: statements.some((n) => statementMeaning(n.statement!).withholds_details),
      many_companies_under_one_controller: nodes.some((n) => n.controls !== null && n.controls > many),
      no_registrable_psc: statements.some((n) => statementMeaning(n.statement!).no_registrable_psc),
    },
    truncated: graph.truncated,
    limits: { max_edges: maxEdges, many_companies: many },
  };
}

/** Names and statuses of the companies reached, as the register has them (read with the records). */
function nameCompanies(around: OwnershipNeighbourhood, nodes: OwnershipNode[], root: string): void {
  const named = new Map<string, { name: string | null; status: string | null }>();
  for (const psc of [...around.up, ...around.down]) {
    if (psc.resolved_company_number !== null)
      named.set(psc.resolved_company_number, { name: psc.resolved_company_name, status: psc.resolved_company_status });
    if (psc.company_name !== null)
      named.set(psc.company_number, { name: psc.company_name, status: psc.company_status });
  }
  for (const node of nodes) {
    if (node.kind !== 'company' || node.company_number === root) continue;
    const company = named.get(node.company_number!);
    if (!company) continue;
    node.name = company.name;
    node.status = company.status;
  }
}

/** How many companies each controller in the answer controls across the register (read with the records). */
function countControlled(
  around: OwnershipNeighbourhood,
  graph: GraphBuilder,
  nodes: OwnershipNode[],
  edges: OwnershipEdge[],
  root: string,
): void {
  const controllers = new Set([companyId(root), ...edges.map((e) => e.from)]);
  for (const node of nodes) {
    if (!controllers.has(node.id)) continue;
    if (node.kind === 'company') node.controls = around.counts.companies.get(node.company_number!) ?? 0;
    else if (graph.personKeys.has(node.id))
      node.controls = around.counts.persons.get(graph.personKeys.get(node.id)!) ?? 0;
  }
}
