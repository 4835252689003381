/**
 * Page markup in three house styles of UK accounts software: tables with inline styles on every
 * cell, tables with generated class names, and absolutely plain divs. The figures are the same;
 * the bytes around them differ, as between real filings.
 */
import type { Layout as LayoutName } from './ixbrl-dialect.ts';

export type RowKind = 'normal' | 'subtotal' | 'total' | 'heading';

export interface Layout {
  css(fontFamily: string): string;
  pageOpen(): string;
  pageClose(footer: string): string;
  heading(text: string, level: 1 | 2 | 3): string;
  para(html: string): string;
  /** A table of amounts with one column per period; `columns` are the headings ("2022", "2021"). */
  tableOpen(columns: readonly string[], currency: string): string;
  row(label: string, note: string, cells: readonly string[], kind?: RowKind): string;
  tableClose(): string;
}

const INLINE_CSS = (font: string) => `
td{font-family:"${font}";font-size:12px;text-align:left;vertical-align:bottom}
p{font-family:"${font}";font-size:13px;text-align:justify;margin:0 0 8px 0}
h1{font-family:"${font}";font-size:19px;text-align:center;font-weight:bold}
h2{font-family:"${font}";font-size:15px;font-weight:bold;margin:12px 0 6px 0}
h3{font-family:"${font}";font-size:13px;font-weight:bold;margin:8px 0 4px 0}
div.page{page-break-after:always;width:590px;margin:0 auto 40px auto;min-height:800px;position:relative}
div.footer{text-align:center;font-size:11px;margin-top:24px}
`;

const inlineStyled: Layout = {
  css: INLINE_CSS,
  pageOpen: () => '\n\t\t<div class="page">',
  pageClose: (footer) => `\n\t\t\t<div class="footer">${footer}</div>\n\t\t</div>`,
  heading: (text, level) =>
    `\n\t\t\t<table border="0" width="590"><col width="590" /><tr><td style="${level === 1 ? 'text-align:center;font-size:19px' : 'font-size:15px'};font-weight:bold">${text}</td></tr></table>`,
  para: (html) =>
    `\n\t\t\t<table border="0" width="590"><col width="590" /><tr><td colspan="8" style="text-align:justify;vertical-align:top;font-size:13px">${html}</td></tr></table>`,
  tableOpen: (columns, currency) => {
    let out =
      '\n\t\t\t<table border="0" width="587">\n\t\t\t\t<col width="236" />\n\t\t\t\t<col width="40" />\n\t\t\t\t<col width="9" />';
    for (let i = 0; i < columns.length; i++) out += '\n\t\t\t\t<col width="79" />\n\t\t\t\t<col width="79" />';
    out +=
      '\n\t\t\t\t<tr>\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td style="text-align:center;font-size:13px;font-weight:bold">Notes</td>\n\t\t\t\t\t<td></td>';
    for (const c of columns)
      out += `\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td style="text-align:right;font-size:13px;font-weight:bold">${c} </td>`;
    out += '\n\t\t\t\t</tr>\n\t\t\t\t<tr>\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td></td>';
    for (let i = 0; i < columns.length; i++)
      out += `\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td style="text-align:right;font-size:13px;font-weight:bold">${currency} </td>`;
    return `${out}\n\t\t\t\t</tr>\n\t\t\t\t<tr style="height:17px">\n\t\t\t\t\t<td></td>\n\t\t\t\t</tr>`;
  },
  row: (label, note, cells, kind = 'normal') => {
    const weight = kind === 'total' || kind === 'heading' ? ';font-weight:bold' : '';
    const border =
      kind === 'total'
        ? ';border-top-style:solid;border-top-width:1px;border-bottom-style:double;border-bottom-width:3px'
        : kind === 'subtotal'
          ? ';border-top-style:solid;border-top-width:1px'
          : '';
    let out = `\n\t\t\t\t<tr>\n\t\t\t\t\t<td style="font-size:13px${weight}">${label}</td>\n\t\t\t\t\t<td style="text-align:center;font-size:13px">${note}</td>\n\t\t\t\t\t<td></td>`;
    for (const cell of cells) {
      out += `\n\t\t\t\t\t<td></td>\n\t\t\t\t\t<td style="text-align:right;font-size:13px${weight}${border}">${cell} </td>`;
    }
    return `${out}\n\t\t\t\t</tr>`;
  },
  tableClose: () => '\n\t\t\t</table>',
};

const CLASSES_CSS = (font: string) => `
body{ margin:0px; font-size:1.3em; }
td{ padding:0px; }
div.portraitpage{ page-break-after:always; position:relative; max-width:170mm; min-height:273mm; margin:12mm 20mm 12mm 20mm; }
div.footer{ left:0px; right:0px; bottom:0px; text-align:center; position:absolute; }
table.iris_table{ width:100.00%; border-collapse:collapse; }
td.total_single{ border-top:thin solid black; }
td.total_double{ border-top:thin solid black; border-bottom:double black; }
.ta_10{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:400; line-height: 1.15; }
.ta_11{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:700; line-height: 1.15; }
.ta_12{ text-decoration:underline; color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:700; line-height: 1.15; }
.ta_20{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:400; line-height: 1.15; text-align:right; }
.ta_21{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:700; line-height: 1.15; text-align:right; }
.ta_30{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:16px; font-weight:700; line-height: 1.15; text-align:center; }
.para{ color:rgb(0, 0, 0); font-family:"${font}"; font-size:13px; font-weight:400; line-height: 1.3; text-align:justify; margin-bottom:6pt; }
`;

const classStyled: Layout = {
  css: CLASSES_CSS,
  pageOpen: () => '\n<div class="portraitpage">\n<div class="container">',
  pageClose: (footer) => `\n</div>\n<div class="footer"><span class="ta_10">${footer}</span></div>\n</div>`,
  heading: (text, level) => `\n<div class="maintext"><p class="${level === 1 ? 'ta_30' : 'ta_11'}">${text}</p></div>`,
  para: (html) => `\n<div class="tagged_blob"><p class="para">${html}</p></div>`,
  tableOpen: (columns, currency) => {
    let out =
      '\n<table class="iris_table"><tr><td class="ta_10" style="width:55%"></td><td class="ta_11" style="width:9%">Note</td>';
    for (const c of columns) out += `<td class="ta_21" style="width:18%">${c}</td>`;
    out += '</tr><tr><td></td><td></td>';
    for (let i = 0; i < columns.length; i++) out += `<td class="ta_21">${currency}</td>`;
    return `${out}</tr>`;
  },
  row: (label, note, cells, kind = 'normal') => {
    const labelClass = kind === 'normal' || kind === 'subtotal' ? 'ta_10' : 'ta_11';
    const cellClass = kind === 'total' ? 'ta_21 total_double' : kind === 'subtotal' ? 'ta_20 total_single' : 'ta_20';
    let out = `\n<tr><td class="${labelClass}">${label}</td><td class="ta_10">${note}</td>`;
    for (const cell of cells) out += `<td class="${cellClass}">${cell}</td>`;
    return `${out}</tr>`;
  },
  tableClose: () => '\n</table>',
};

const DIVS_CSS = (font: string) => `
body { font-family: "${font}", Times, Serif; }
.hidden { display: none; }
div.accountspage { width: 21cm; page-break-after: always; margin: 2em 0; padding: 2em; }
h1 { font-size: 100%; font-weight: bold; text-align: center; }
h2 { font-size: 100%; font-weight: bold; margin: 0.2em 0 0.5em 0; }
h3 { font-size: 100%; font-weight: bold; margin: 0.5em 0; }
div.line { clear: both; overflow: hidden; }
div.line span.label { float: left; width: 52%; }
div.line span.note { float: left; width: 8%; text-align: center; }
div.line span.figure { float: left; width: 20%; text-align: right; white-space: nowrap; }
div.line.total span.figure { border-top: 1px solid #000; border-bottom: 3px double #000; }
div.line.subtotal span.figure { border-top: 1px solid #000; }
div.line.heading span.label { font-weight: bold; }
p.text { text-align: justify; }
div.footer { text-align: center; font-size: 80%; }
`;

const divStyled: Layout = {
  css: DIVS_CSS,
  pageOpen: () => '\n<div class="accountspage">',
  pageClose: (footer) => `\n<div class="footer">${footer}</div>\n</div>`,
  heading: (text, level) => `\n<h${level}>${text}</h${level}>`,
  para: (html) => `\n<p class="text">${html}</p>`,
  tableOpen: (columns, currency) => {
    let out =
      '\n<div class="figures">\n<div class="line heading"><span class="label">&#160;</span><span class="note">Notes</span>';
    for (const c of columns) out += `<span class="figure">${c}</span>`;
    out += '</div>\n<div class="line heading"><span class="label">&#160;</span><span class="note">&#160;</span>';
    for (let i = 0; i < columns.length; i++) out += `<span class="figure">${currency}</span>`;
    return `${out}</div>`;
  },
  row: (label, note, cells, kind = 'normal') => {
    let out = `\n<div class="line${kind === 'normal' ? '' : ` ${kind}`}"><span class="label">${label}</span><span class="note">${note || '&#160;'}</span>`;
    for (const cell of cells) out += `<span class="figure">${cell || '&#160;'}</span>`;
    return `${out}</div>`;
  },
  tableClose: () => '\n</div>',
};

const LAYOUTS: Record<LayoutName, Layout> = { table: inlineStyled, classes: classStyled, divs: divStyled };

/** Style sheets by layout and font, built once: they are the same for thousands of filings. */
const CSS_CACHE = new Map<string, string>();

/** The markup helpers of a house style. */
export function layoutFor(name: LayoutName): Layout {
  return LAYOUTS[name];
}

/** The style sheet of a house style in a font, shared between filings. */
export function cssFor(name: LayoutName, fontFamily: string): string {
  const key = `${name}/${fontFamily}`;
  let css = CSS_CACHE.get(key);
  if (css === undefined) CSS_CACHE.set(key, (css = [LAYOUTS[name].css(fontFamily)].join('')));
  return css;
}
