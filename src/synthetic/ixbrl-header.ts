/**
 * The inline XBRL header (hidden facts, schema reference, contexts and units) and the root element
 * with its namespace declarations.
 */
import { escapeXml } from './markup.ts';
import type { FilingSheet } from './ixbrl-sheet.ts';

/** The facts of ix:hidden: dates, flags, software, the dimension-only facts and sometimes employees. */
export function hiddenFacts(s: FilingSheet): string {
  const d = s.d;
  const { company } = s.input;
  const facts: string[] = [];
  const rng = s.rng;
  if (rng.chance(0.6)) facts.push(s.nameFact());
  if (rng.chance(0.6)) facts.push(s.numberFact());
  const dormantConcept = s.frs ? s.b('EntityDormantTruefalse') : s.b('EntityDormant');
  if (s.dormant || rng.chance(0.6)) facts.push(s.f.text(dormantConcept, s.curD, s.dormant ? 'true' : 'false'));
  if (!s.frs || rng.chance(0.5))
    facts.push(
      // The FRS flag is told by a dimension member elsewhere; the old one is a plain true/false.
      s.f.text(s.frs ? s.b('EntityTradingStatus') : s.b('EntityTrading'), s.curD, s.frs ? '' : String(!s.dormant)),
    );
  facts.push(s.f.date(s.b('StartDateForPeriodCoveredByReport'), s.curD, s.input.periodStart, true));
  facts.push(s.f.date(s.b('EndDateForPeriodCoveredByReport'), s.curD, s.input.balanceSheetDate, true));
  if (rng.chance(0.7)) facts.push(s.f.date(s.b('BalanceSheetDate'), s.curI, s.input.balanceSheetDate, true));
  if (s.frs) {
    facts.push(s.f.text(s.b('NameProductionSoftware'), s.curD, escapeXml(d.software.name)));
    facts.push(s.f.text(s.b('VersionProductionSoftware'), s.curD, escapeXml(d.software.version)));
    if (d.standardMember) {
      const dims = [{ dimension: s.b('AccountingStandardsDimension'), member: s.b(d.standardMember) }];
      facts.push(s.f.text(s.b('AccountingStandardsApplied'), s.curD, '', { dimensions: dims }));
    }
    const legalForm =
      company.legalForm === 'llp'
        ? 'LimitedLiabilityPartnershipLLP'
        : company.legalForm === 'plc'
          ? 'PublicLimitedCompanyPLC'
          : 'PrivateLimitedCompanyLtd';
    facts.push(
      s.f.text(s.b('LegalFormEntity'), s.curD, '', {
        dimensions: [{ dimension: s.b('LegalFormEntityDimension'), member: s.b(legalForm) }],
      }),
    );
    const status = s.dormant
      ? 'AuditExempt-NoAccountantsReport'
      : rng.pick(['AuditExemptWithAccountantsReport', 'AuditExempt-NoAccountantsReport']);
    facts.push(
      s.f.text(s.b('AccountsStatusAuditedOrUnaudited'), s.curD, '', {
        dimensions: [{ dimension: s.b('AccountsStatusDimension'), member: s.b(status) }],
      }),
    );
    const type = s.micro ? 'FullAccounts' : rng.pick(['FullAccounts', 'AbridgedAccounts', 'FilletedAccounts']);
    facts.push(
      s.f.text(s.b('AccountsTypeFullOrAbbreviated'), s.curD, '', {
        dimensions: [{ dimension: s.b('AccountsTypeDimension'), member: s.b(type) }],
      }),
    );
    const country =
      company.register === 'scotland'
        ? 'Scotland'
        : company.register === 'northern-ireland'
          ? 'NorthernIreland'
          : 'EnglandWales';
    facts.push(
      s.f.text(s.b('CountryFormationOrIncorporation'), s.curD, '', {
        dimensions: [{ dimension: `${d.countries}:CountriesRegionsDimension`, member: `${d.countries}:${country}` }],
      }),
    );
  }
  const signer = [{ dimension: s.b('EntityOfficersDimension'), member: s.b('Director1') }];
  facts.push(
    s.f.text(
      s.frs ? s.c('DirectorSigningFinancialStatements') : s.c('NameDirectorSigningAccounts'),
      s.curD,
      s.frs ? '' : escapeXml(s.people[0]!.name),
      { dimensions: signer },
    ),
  );
  if (s.hasEmployees() && d.employeesHidden !== 'no') {
    s.columns.forEach((col, i) => {
      const value = col.figures.employees;
      if (value !== null)
        facts.push(s.f.count(s.employeesConcept(), i === 0 ? s.curD : s.priD, value, { hidden: true }));
    });
  }
  return facts.map((fact) => `\n\t\t\t\t${fact}`).join('');
}

/** The ix:header block, hidden from view: hidden facts, schema reference, contexts and units. */
export function header(s: FilingSheet, hidden: string): string {
  const q = s.d.quote;
  return (
    '\n<div style="display:none">\n\t<ix:header>\n\t\t<ix:hidden>' +
    hidden +
    '\n\t\t</ix:hidden>\n\t\t<ix:references>\n\t\t\t' +
    `<link:schemaRef xlink:type=${q}simple${q} xlink:href=${q}${s.d.schemaRef}${q}/>` +
    '\n\t\t</ix:references>\n\t\t<ix:resources>' +
    s.ctx.renderResources() +
    '\n\t\t</ix:resources>\n\t</ix:header>\n</div>'
  );
}

/** The html start tag with every namespace the filing's prefixes need. */
export function rootOpen(s: FilingSheet): string {
  const d = s.d;
  const q = d.quote;
  const ns = (prefix: string, uri: string) => ` xmlns:${prefix}=${q}${uri}${q}`;
  let attrs = ` xmlns=${q}http://www.w3.org/1999/xhtml${q}`;
  attrs += ns('ix', d.ixNamespace);
  attrs += ns(d.transform.prefix, d.transform.namespace);
  attrs += ns('xbrli', 'http://www.xbrl.org/2003/instance');
  attrs += ns('xbrldi', 'http://xbrl.org/2006/xbrldi');
  attrs += ns('link', 'http://www.xbrl.org/2003/linkbase');
  attrs += ns('xlink', 'http://www.w3.org/1999/xlink');
  attrs += ns('iso4217', 'http://www.xbrl.org/2003/iso4217');
  attrs += ns(d.core, d.namespaces.core);
  attrs += ns(d.bus, d.namespaces.bus);
  attrs += ns(d.direp, d.namespaces.direp);
  attrs += ns(d.countries, d.namespaces.countries);
  if (d.contextNaming === 'iris') {
    attrs += ns('xsi', 'http://www.w3.org/2001/XMLSchema-instance');
    attrs += ns('num', 'http://www.xbrl.org/dtr/type/numeric');
    attrs += ns('nonnum', 'http://www.xbrl.org/dtr/type/non-numeric');
  }
  return `<html${attrs}${s.rng.chance(0.4) ? ` xml:lang=${q}en${q}` : ''}>`;
}
