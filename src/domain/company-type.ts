/**
 * The `type` filter: the register's company category, matched without case, or one of the short
 * names users type for the common ones.
 */
const TYPE_ALIASES: Record<string, string> = {
  ltd: 'private limited company',
  private: 'private limited company',
  plc: 'public limited company',
  public: 'public limited company',
  llp: 'limited liability partnership',
  lp: 'limited partnership',
  cic: 'community interest company',
  guarantee: 'pri/ltd by guar/nsc (private, limited by guarantee, no share capital)',
  unlimited: 'private unlimited company',
  cio: 'charitable incorporated organisation',
  overseas: 'overseas entity',
};

/** The key a company's category is indexed and filtered by. */
export function companyTypeKey(type: string): string {
  const key = type.trim().toLowerCase().replace(/\s+/g, ' ');
  return TYPE_ALIASES[key] ?? key;
}

export const COMPANY_TYPE_ALIASES: Readonly<Record<string, string>> = TYPE_ALIASES;
