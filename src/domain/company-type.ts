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

/**
 * The categories of the register's CompanyCategory column, as Companies House spells them. A
 * `type` filter outside these and the short names is refused rather than silently matching
 * nothing.
 */
export const REGISTER_CATEGORIES: readonly string[] = [
  'Private Limited Company',
  'Public Limited Company',
  'Limited Liability Partnership',
  'Limited Partnership',
  'Community Interest Company',
  'PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)',
  "PRI/LBG/NSC (Private, Limited by guarantee, no share capital, use of 'Limited' exemption)",
  'PRIV LTD SECT. 30 (Private limited company, section 30 of the Companies Act)',
  'Private Unlimited Company',
  'Private Unlimited',
  'Old Public Company',
  'Charitable Incorporated Organisation',
  'Scottish Charitable Incorporated Organisation',
  'Scottish Partnership',
  'Overseas Entity',
  'Registered Society',
  'Industrial and Provident Society',
  'Royal Charter Company',
  'Investment Company with Variable Capital',
  'Investment Company with Variable Capital (Securities)',
  'Investment Company with Variable Capital(Umbrella)',
  'Protected Cell Company',
  'Further Education and Sixth Form College Corps',
  'United Kingdom Economic Interest Grouping',
  'United Kingdom Societas',
  'Converted/Closed',
  'Other Company Type',
];

const KNOWN_KEYS = new Set(REGISTER_CATEGORIES.map((category) => companyTypeKey(category)));

/** Whether a `type` filter names a register category or one of the short names. */
export function isKnownCompanyType(type: string): boolean {
  return KNOWN_KEYS.has(companyTypeKey(type));
}

/** The key a company's category is indexed and filtered by. */
export function companyTypeKey(type: string): string {
  const key = type.trim().toLowerCase().replace(/\s+/g, ' ');
  return TYPE_ALIASES[key] ?? key;
}

export const COMPANY_TYPE_ALIASES: Readonly<Record<string, string>> = TYPE_ALIASES;
