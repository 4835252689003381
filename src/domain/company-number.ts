/**
 * Company number normalisation, as the contract fixes it: trimmed, upper-cased, left-padded with
 * zeros to 8 when all digits; then it must be eight letters or digits.
 */
const COMPANY_NUMBER = /^[A-Z0-9]{8}$/;

/** The canonical form of a company number, or null when it cannot be one. */
export function normaliseCompanyNumber(raw: string): string | null {
  const trimmed = raw.trim().toUpperCase();
  if (trimmed.length === 0) return null;
  const padded = /^\d+$/.test(trimmed) && trimmed.length < 8 ? trimmed.padStart(8, '0') : trimmed;
  return COMPANY_NUMBER.test(padded) ? padded : null;
}

/**
 * A company number found inside a filing: stricter than user input, because documents carry
 * other identifiers (names, URLs) where the number should be. It must contain a digit and
 * not be all zeros.
 */
export function companyNumberFromDocument(raw: string): string | null {
  const compact = raw.replace(/\s+/g, '');
  if (!/\d/.test(compact) || /^0+$/.test(compact)) return null;
  return normaliseCompanyNumber(compact);
}
