/**
 * get_ownership: the ownership graph around one company from the PSC register — up to its ultimate
 * controllers, down to the companies it controls, or both — with the natures of control in words,
 * cycles, flags, and the cap (src/ownership/ownership-graph.ts). REST GET /v1/ownership?number=.
 */
import { verificationWords } from '../domain/officers.ts';
import * as z from 'zod';
import type { OwnershipGraph, OwnershipNode } from '../ownership/ownership-graph.ts';
import {
  MANY_COMPANIES_THRESHOLD,
  MAX_OWNERSHIP_EDGES,
  OWNERSHIP_DEPTH,
  OWNERSHIP_DIRECTIONS,
  walkOwnership,
} from '../ownership/ownership-graph.ts';
import { kindWords } from '../ownership/psc-view.ts';
import type { PscKindClass } from '../domain/psc.ts';
import { companyNumberInput } from './inputs.ts';
import { companyNotFound } from './lookup-company.ts';
import { literal, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { getOwnershipOutput } from './outputs.ts';

export type OwnershipAnswer = z.infer<typeof getOwnershipOutput>;

const { min, max, default: defaultDepth } = OWNERSHIP_DEPTH;

export const getOwnership = defineOperation({
  name: 'get_ownership',
  title: 'Who controls a company, and what it controls',
  description:
    'Who controls a UK company and what it controls, from the PSC register. direction: up follows its ' +
    'controlling companies on the register to the ultimate controllers (individuals, overseas or unresolved ' +
    'entities, legal persons, super-secure PSCs, or statements such as no registrable PSC); down follows the ' +
    `companies it controls, and theirs; both (default). depth ${min}–${max} levels each way (default ${defaultDepth}). ` +
    'Returns nodes, edges controller → controlled with natures of control in words ("owns 75–100% of shares") ' +
    'and bands, ultimate_controllers, cycles (reported, never looped), and flags: overseas_parent, ' +
    'circular_ownership, super_secure_psc, psc_details_withheld (a statement that a controller is unidentified, ' +
    `unconfirmed or under a restrictions notice), many_companies_under_one_controller (more than ` +
    `${MANY_COMPANIES_THRESHOLD}), no_registrable_psc. At most ${MAX_OWNERSHIP_EDGES} edges, else truncated. A ` +
    'number not on the register is an error. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/ownership', rename: { number: 'company_number' } },
  input: z.object({
    company_number: companyNumberInput('The company number'),
    direction: z
      .enum(OWNERSHIP_DIRECTIONS, { error: `must be one of ${OWNERSHIP_DIRECTIONS.join(', ')}` })
      .default('both')
      .describe('up: who controls it; down: what it controls; both (default)'),
    depth: z
      .number()
      .int('must be a whole number')
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`)
      .default(defaultDepth)
      .describe(`Levels to walk each way, ${min}–${max} (default ${defaultDepth})`),
  }),
  output: getOwnershipOutput,
  json: true,
  async run(deps, input): Promise<OwnershipAnswer> {
    const walked = await walkOwnership(deps.ownership, input.company_number, {
      direction: input.direction,
      depth: input.depth,
    });
    if (!walked) throw companyNotFound(input.company_number);
    const { root, ...graph } = walked;
    return { company_number: root.company_number, name: root.name, ...graph };
  },
  toMarkdown: renderOwnership,
});

const FLAG_WORDS: Record<keyof OwnershipGraph['flags'], string> = {
  overseas_parent: 'overseas parent: an entity registered outside the UK controls a company up the chain',
  circular_ownership: 'circular ownership: companies that control each other (see Cycles)',
  super_secure_psc: 'super-secure PSC: a controller whose details are withheld by law',
  psc_details_withheld: 'PSC details withheld: a statement that a controller is not identified or not confirmed',
  many_companies_under_one_controller: 'many companies under one controller',
  no_registrable_psc: 'no registrable PSC: a company states that no one has significant control',
};

/** A node in a line: "COMPANY 2 LIMITED (00000002, Active)", "Mr Alan Smith (individual; British; born 1970-03)". */
function nodeLabel(node: OwnershipNode, many: number): string {
  if (node.kind === 'statement' || node.kind === 'exemption')
    return `_Statement:_ ${literal(node.words ?? node.statement)}`;
  if (node.kind === 'super_secure') return `_Super-secure PSC:_ ${literal(node.words)}`;
  const controls = node.controls !== null && node.controls > many ? `; **controls ${node.controls} companies**` : '';
  if (node.kind === 'company')
    return `**${literal(node.name ?? '(not on the register)')}** (${literal(node.company_number)}${node.status ? `, ${literal(node.status)}` : ''}${controls})`;
  const details = [
    kindWords(pscKindClass(node.kind), node.psc_kind ?? node.kind, node.beneficial_owner),
    node.country && `${node.country}${node.overseas ? ', overseas' : ''}`,
    node.registration_number && `registration ${node.registration_number}`,
    node.nationality,
    node.country_of_residence && `lives in ${node.country_of_residence}`,
    node.birth_year !== null &&
      `born ${node.birth_year}${node.birth_month !== null ? `-${String(node.birth_month).padStart(2, '0')}` : ''}`,
  ].filter(Boolean);
  return `${literal(node.name ?? node.words ?? '(withheld)')} (${literal(details.join('; '))}${controls})`;
}

function pscKindClass(kind: OwnershipNode['kind']): PscKindClass {
  switch (kind) {
    case 'corporate_entity':
      return 'corporate';
    case 'company':
    case 'other':
      return 'other';
    default:
      return kind;
  }
}

/**
 * A tree of the graph from the company asked about, as nested lists: up, each company's
 * controllers and statements under it; down, the companies each controls. A node already shown is
 * named again but not expanded (a diamond, a cycle).
 */
function renderTree(answer: OwnershipAnswer, way: 'up' | 'down'): string[] {
  const byId = new Map(answer.nodes.map((n) => [n.id, n]));
  const many = answer.limits.many_companies;
  const shown = new Set<string>();
  const lines: string[] = [];
  const visit = (id: string, indent: number, via: string) => {
    const node = byId.get(id)!;
    const pad = '  '.repeat(indent);
    const again = shown.has(id);
    lines.push(`${pad}- ${nodeLabel(node, many)}${via}${again ? ' — shown above' : ''}`);
    if (again) return;
    shown.add(id);
    if (node.kind !== 'company') return;
    if (way === 'up') {
      for (const edge of answer.edges.filter((e) => e.to === id)) visit(edge.from, indent + 1, edgeWords(edge));
      for (const statement of answer.nodes.filter(
        (n) => (n.kind === 'statement' || n.kind === 'exemption') && n.company_number === node.company_number,
      ))
        lines.push(`${pad}  - ${nodeLabel(statement, many)}`);
      if (node.psc_records === 'none') lines.push(`${pad}  - _No PSC records held._`);
      if (node.psc_records === 'not_read' && indent > 0) lines.push(`${pad}  - _Not walked further (depth)._`);
    } else for (const edge of answer.edges.filter((e) => e.from === id)) visit(edge.to, indent + 1, edgeWords(edge));
  };
  visit(`company:${answer.company_number}`, 0, '');
  return lines;
}

function edgeWords(edge: OwnershipAnswer['edges'][number]): string {
  const natures = edge.natures.map((n) => n.words).join('; ');
  const identity = verificationWords(edge.identity_verification);
  return `${natures ? ` — ${literal(natures)}` : ''}${edge.notified_on ? ` (since ${literal(edge.notified_on)})` : ''}${identity ? `; identity ${identity}` : ''}`;
}

function renderOwnership(answer: OwnershipAnswer): string {
  const flags = (Object.keys(FLAG_WORDS) as (keyof typeof FLAG_WORDS)[]).filter((flag) => answer.flags[flag]);
  const parts = [
    `# Ownership of ${literal(answer.name)} (${literal(answer.company_number)})`,
    `Direction ${answer.direction}, depth ${answer.depth}: ${answer.nodes.length} ${answer.nodes.length === 1 ? 'node' : 'nodes'}, ` +
      `${answer.edges.length} control ${answer.edges.length === 1 ? 'relationship' : 'relationships'}.`,
    `**Flags:** ${flags.length > 0 ? flags.map((flag) => FLAG_WORDS[flag]).join('; ') : 'none'}.`,
  ];
  if (answer.truncated)
    parts.push(
      `**Truncated:** the answer stops at ${answer.limits.max_edges} control relationships; there are more. ` +
        'Ask with a smaller depth or one direction.',
    );
  if (answer.direction !== 'down') parts.push('## Controlled by (up)', renderTree(answer, 'up').join('\n'));
  if (answer.direction !== 'up') {
    const down = renderTree(answer, 'down');
    parts.push('## Controls (down)', down.length > 1 ? down.join('\n') : '_Controls no company on the register._');
  }
  if (answer.cycles.length > 0)
    parts.push(
      '## Cycles',
      answer.cycles
        .map(
          (cycle) =>
            `- ${literal([...cycle.companies, cycle.companies[0]].join(' → '))} (closed by ${literal(cycle.closing_edge.from.replace('company:', ''))} → ${literal(cycle.closing_edge.to.replace('company:', ''))})`,
        )
        .join('\n'),
    );
  const many = answer.nodes.filter((n) => n.controls !== null && n.controls > answer.limits.many_companies);
  if (many.length > 0)
    parts.push(
      `## Controllers of more than ${answer.limits.many_companies} companies`,
      table(
        ['Controller', 'Companies controlled'],
        many.map((n) => [n.name ?? n.company_number, n.controls]),
      ),
    );
  return parts.join('\n\n');
}
