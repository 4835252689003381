/**
 * The SIC 2007 section (A–U) of a SIC code, from its division (the first two digits), as the
 * Office for National Statistics groups them. Divisions SIC 2007 does not use (04, 34, 40, 44, 48,
 * 54, 57, 67, 76, 83, 89) and anything that is not a code have no section.
 */

/** Each section's first and last division, in order. */
export const SIC_SECTIONS = {
  A: [1, 3, 'Agriculture, forestry and fishing'],
  B: [5, 9, 'Mining and quarrying'],
  C: [10, 33, 'Manufacturing'],
  D: [35, 35, 'Electricity, gas, steam and air conditioning supply'],
  E: [36, 39, 'Water supply; sewerage, waste management and remediation activities'],
  F: [41, 43, 'Construction'],
  G: [45, 47, 'Wholesale and retail trade; repair of motor vehicles and motorcycles'],
  H: [49, 53, 'Transportation and storage'],
  I: [55, 56, 'Accommodation and food service activities'],
  J: [58, 63, 'Information and communication'],
  K: [64, 66, 'Financial and insurance activities'],
  L: [68, 68, 'Real estate activities'],
  M: [69, 75, 'Professional, scientific and technical activities'],
  N: [77, 82, 'Administrative and support service activities'],
  O: [84, 84, 'Public administration and defence; compulsory social security'],
  P: [85, 85, 'Education'],
  Q: [86, 88, 'Human health and social work activities'],
  R: [90, 93, 'Arts, entertainment and recreation'],
  S: [94, 96, 'Other service activities'],
  T: [
    97,
    98,
    'Activities of households as employers; undifferentiated goods- and services-producing activities of households for own use',
  ],
  U: [99, 99, 'Activities of extraterritorial organisations and bodies'],
} as const satisfies Record<string, readonly [first: number, last: number, title: string]>;

export type SicSection = keyof typeof SIC_SECTIONS;

/** Divisions inside a section's range that SIC 2007 leaves unused. */
const UNUSED_DIVISIONS = new Set([4, 34, 40, 44, 48, 54, 57, 67, 76, 83, 89]);

/** The section of a code ("62020", "62020 - Information technology…", or a division "62"); null if none. */
export function sicSection(code: string): SicSection | null {
  const digits = /^\s*(\d{2})/.exec(code)?.[1];
  if (digits === undefined) return null;
  const division = Number(digits);
  if (UNUSED_DIVISIONS.has(division)) return null;
  for (const [section, [first, last]] of Object.entries(SIC_SECTIONS)) {
    if (division >= first && division <= last) return section as SicSection;
  }
  return null;
}

/** A section's divisions as two-digit strings ("10" … "33"), the form `sic_prefixes` holds. */
export function sicSectionDivisions(section: SicSection): string[] {
  const [first, last] = SIC_SECTIONS[section];
  const divisions: string[] = [];
  for (let division = first; division <= last; division++)
    if (!UNUSED_DIVISIONS.has(division)) divisions.push(String(division).padStart(2, '0'));
  return divisions;
}
