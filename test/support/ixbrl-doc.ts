/**
 * Builds small inline XBRL documents for table-driven parser tests: a current year to
 * 2023-12-31 (contexts "cy" instant, "cyd" duration), a prior year to 2022-12-31 ("py", "pyd"),
 * and any extra contexts a case needs; or, with `contexts`, only the contexts given.
 */
export interface ExtraContext {
  id: string;
  instant?: string;
  start?: string;
  end?: string;
  members?: [dimension: string, member: string][];
}

function contextXml(c: ExtraContext, number = '01234567'): string {
  const period = c.instant
    ? `<xbrli:instant>${c.instant}</xbrli:instant>`
    : `<xbrli:startDate>${c.start}</xbrli:startDate><xbrli:endDate>${c.end}</xbrli:endDate>`;
  const segment = c.members?.length
    ? `<xbrli:segment>${c.members.map(([d, m]) => `<xbrldi:explicitMember dimension="core:${d}">core:${m}</xbrldi:explicitMember>`).join('')}</xbrli:segment>`
    : '';
  return `<xbrli:context id="${c.id}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">${number}</xbrli:identifier>${segment}</xbrli:entity><xbrli:period>${period}</xbrli:period></xbrli:context>`;
}

export function ixDocument(
  body: string,
  options: {
    extraContexts?: ExtraContext[];
    /** Replaces the default four contexts. */
    contexts?: ExtraContext[];
    number?: string;
    head?: string;
    /** The schema entry point, FRS 102 2022 by default. */
    schemaRef?: string;
  } = {},
): string {
  const number = options.number ?? '01234567';
  const contexts = [
    ...(options.contexts ?? [
      { id: 'cy', instant: '2023-12-31' },
      { id: 'cyd', start: '2023-01-01', end: '2023-12-31' },
      { id: 'py', instant: '2022-12-31' },
      { id: 'pyd', start: '2022-01-01', end: '2022-12-31' },
    ]),
    ...(options.extraContexts ?? []),
  ]
    .map((c) => contextXml(c, number))
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:core="http://xbrl.frc.org.uk/fr/2022-01-01/core" xmlns:bus="http://xbrl.frc.org.uk/cd/2022-01-01/business" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">
<head>${options.head ?? ''}<title>Test filing</title></head>
<body><div style="display:none"><ix:header><ix:references><link:schemaRef xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xlink:type="simple" xlink:href="${options.schemaRef ?? 'https://xbrl.frc.org.uk/FRS-102/2022-01-01/FRS-102-2022-01-01.xsd'}"/></ix:references><ix:resources>${contexts}<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit><xbrli:unit id="pure"><xbrli:measure>xbrli:pure</xbrli:measure></xbrli:unit></ix:resources></ix:header></div>
<p><ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">TEST COMPANY LIMITED</ix:nonNumeric></p>
${body}
</body></html>`;
}

/** A money fact. */
export function money(concept: string, context: string, text: string, attrs = ''): string {
  return `<ix:nonFraction name="core:${concept}" contextRef="${context}" unitRef="GBP" decimals="0" format="ixt:num-dot-decimal"${attrs ? ` ${attrs}` : ''}>${text}</ix:nonFraction>`;
}
