/**
 * Inline XBRL (XHTML) accounts as UK filing software writes them: FRS 105 micro-entity, FRS 102
 * small and larger company, and old UK GAAP 2009 accounts, with a title page, company information,
 * reports, balance sheet, profit and loss account, notes and the hidden header of contexts and
 * units. The tagged figures are exactly the input's; everything else on the page is derived from
 * them or is boilerplate, and each filing's software dialect is drawn from `rng`.
 */
import { yearOf } from './dates.ts';
import type { FilingInput } from './filing-input.ts';
import { balanceSheetPage } from './ixbrl-balance-sheet.ts';
import { accountantsPage, directorsReportPage, informationPage, titlePage } from './ixbrl-front-pages.ts';
import { consolidatedPage } from './ixbrl-group-accounts.ts';
import { header, hiddenFacts, rootOpen } from './ixbrl-header.ts';
import { cssFor } from './ixbrl-layout.ts';
import { notesPages } from './ixbrl-notes.ts';
import { profitAndLossPage } from './ixbrl-profit-and-loss.ts';
import { FilingSheet } from './ixbrl-sheet.ts';
import { escapeXml } from './markup.ts';
import type { Random } from './random.ts';

export type { FilingInput } from './filing-input.ts';

/** Render one filing. Deterministic for the input and the state of `rng`. */
export function renderIxbrlFiling(input: FilingInput, rng: Random): string {
  const s = new FilingSheet(input, rng);
  const { company } = input;

  let pages = titlePage(s);
  if (!s.micro || rng.chance(0.3)) pages += informationPage(s);
  if (!s.dormant && rng.chance(s.micro ? 0.3 : 0.6)) pages += accountantsPage(s);
  if (!s.micro && !s.dormant && rng.chance(s.frs ? 0.35 : 0.5)) pages += directorsReportPage(s);
  if (s.any((col) => col.figures.turnover)) pages += profitAndLossPage(s);
  pages += balanceSheetPage(s);
  if (s.frs && company.group && !s.micro) pages += consolidatedPage(s);
  pages += notesPages(s);

  const ixHeader = header(s, hiddenFacts(s));
  const declaration = rng.chance(0.7)
    ? '<?xml version="1.0" encoding="UTF-8"?>\n'
    : '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n';
  const title = `${escapeXml(company.name)} - ${s.micro ? 'Micro-entity accounts' : 'Accounts'} ${yearOf(s.input.balanceSheetDate)}`;
  const head =
    `\n<head>\n\t<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />` +
    `\n\t<meta name="generator" content="${escapeXml(s.d.software.name)} ${escapeXml(s.d.software.version)}" />` +
    `\n\t<title>${title}</title>\n\t<style type="text/css">${cssFor(s.d.layout, s.d.fontFamily)}\t</style>\n</head>`;
  return (
    declaration +
    (s.d.doctype ? '<!DOCTYPE html>\n' : '') +
    rootOpen(s) +
    head +
    '\n<body>' +
    (s.d.headerAtEnd ? pages + ixHeader : ixHeader + pages) +
    '\n</body>\n</html>\n'
  );
}
