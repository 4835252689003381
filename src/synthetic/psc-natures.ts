/**
 * Natures of control as Companies House codes them (companieshouse/api-enumerations,
 * psc_descriptions.yml): shares and voting rights in bands, the right to appoint or remove the
 * board, significant influence or control; each also held through a trust or a firm; and the
 * limited liability partnership codes (surplus assets, members) for LLPs.
 */

export type Band = '25-to-50' | '50-to-75' | '75-to-100';

/** What a PSC holds, before it is written as codes for a company or an LLP. */
export interface Holding {
  /** Shares (of an LLP: rights to surplus assets) in a band, or none. */
  shares: Band | null;
  /** Voting rights in a band, or none. */
  votes: Band | null;
  /** The right to appoint or remove most of the board (of an LLP: its members). */
  appoints: boolean;
  /** Significant influence or control, the nature of a PSC who holds none of the above. */
  influence: boolean;
  /** Held as a trustee of a trust or a member of a firm. */
  via: 'trust' | 'firm' | null;
}

/** The codes of `holding` in the snapshot's order: shares, voting, appointment, influence. */
export function naturesOfControl(holding: Holding, llp: boolean): string[] {
  const via = holding.via === null ? '' : `-as-${holding.via}`;
  const natures: string[] = [];
  if (llp) {
    const tail = `${via}-limited-liability-partnership`;
    if (holding.shares) natures.push(`right-to-share-surplus-assets-${holding.shares}-percent${tail}`);
    if (holding.votes) natures.push(`voting-rights-${holding.votes}-percent${tail}`);
    if (holding.appoints) natures.push(`right-to-appoint-and-remove-members${tail}`);
    if (holding.influence) natures.push(`significant-influence-or-control${tail}`);
    return natures;
  }
  if (holding.shares) natures.push(`ownership-of-shares-${holding.shares}-percent${via}`);
  if (holding.votes) natures.push(`voting-rights-${holding.votes}-percent${via}`);
  if (holding.appoints) natures.push(`right-to-appoint-and-remove-directors${via}`);
  if (holding.influence) natures.push(`significant-influence-or-control${via}`);
  return natures;
}
