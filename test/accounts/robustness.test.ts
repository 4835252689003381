/**
 * Bad input never throws out of the parser: each gets a typed result naming the reason, and
 * recoverable damage (odd encodings, sloppy markup) still yields the figures.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseFiling } from '../../src/accounts/parse-filing.ts';
import type { ParseErrorCode, ParseResult } from '../../src/accounts/parse-filing.ts';
import { ixDocument, money } from '../support/ixbrl-doc.ts';
import { accountsSamplesDir } from '../support/samples.ts';

const FILE = 'Prod223_0001_01234567_20231231.html';
const good = ixDocument(money('NetAssetsLiabilities', 'cy', '1,500') + money('CashBankOnHand', 'cy', '250'));

function expectFigures(result: ParseResult, netAssets = 1500): void {
  if (!result.ok) assert.fail(JSON.stringify(result.failure));
  assert.equal(result.filing.current.net_assets, netAssets);
}

function expectFailure(result: ParseResult, code: ParseErrorCode): void {
  assert.equal(result.ok, false, 'expected a failure');
  if (!result.ok) {
    assert.equal(result.failure.error.code, code, result.failure.error.message);
    assert.ok(result.failure.error.message.length > 0);
    assert.equal(result.failure.file, FILE);
  }
}

function utf16(text: string, order: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  const mark = order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff];
  return bom ? Buffer.concat([Buffer.from(mark), bytes]) : bytes;
}

describe('encodings', () => {
  const named = ixDocument(
    '<p><ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">CAFÉ £ LTD</ix:nonNumeric></p>' +
      money('NetAssetsLiabilities', 'cy', '1,500'),
  ).replace(
    '<p><ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">TEST COMPANY LIMITED</ix:nonNumeric></p>',
    '',
  );
  const cases: { name: string; bytes: () => Buffer; entity?: string; warned?: boolean }[] = [
    { name: 'UTF-8', bytes: () => Buffer.from(named), entity: 'CAFÉ £ LTD' },
    {
      name: 'UTF-8 with BOM',
      bytes: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(named)]),
      entity: 'CAFÉ £ LTD',
    },
    {
      name: 'windows-1252 declared',
      bytes: () => Buffer.from(named.replace('encoding="UTF-8"', 'encoding="windows-1252"'), 'latin1'),
      entity: 'CAFÉ £ LTD',
    },
    {
      name: 'ISO-8859-1 declared in a meta tag',
      bytes: () =>
        Buffer.from(
          named
            .replace('<?xml version="1.0" encoding="UTF-8"?>', '')
            .replace('<title>', '<meta charset="iso-8859-1"/><title>'),
          'latin1',
        ),
      entity: 'CAFÉ £ LTD',
    },
    {
      name: 'windows-1252 bytes declared as UTF-8 fall back, with a warning',
      bytes: () => Buffer.from(named, 'latin1'),
      entity: 'CAFÉ £ LTD',
      warned: true,
    },
    { name: 'UTF-16LE with BOM', bytes: () => utf16(named, 'le', true), entity: 'CAFÉ £ LTD' },
    { name: 'UTF-16BE with BOM', bytes: () => utf16(named, 'be', true), entity: 'CAFÉ £ LTD' },
    {
      name: 'UTF-16LE without BOM',
      bytes: () => utf16(named.replace(/^<\?xml[^>]*>/, ''), 'le', false),
      entity: 'CAFÉ £ LTD',
    },
    {
      name: 'an unknown declared encoding is read as windows-1252, with a warning',
      bytes: () => Buffer.from(named.replace('encoding="UTF-8"', 'encoding="x-klingon"'), 'latin1'),
      entity: 'CAFÉ £ LTD',
      warned: true,
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const result = parseFiling(c.bytes(), FILE);
      expectFigures(result);
      if (!result.ok) return;
      assert.equal(result.filing.entity_name, c.entity);
      assert.equal(result.filing.warnings.length > 0, c.warned ?? false, JSON.stringify(result.filing.warnings));
    });
  }
});

describe('markup damage that still yields the figures', () => {
  const cases: { name: string; text: () => string }[] = [
    { name: 'stray closing tags', text: () => good.replace('<body>', '<body></div></span></td>') },
    { name: 'unclosed HTML elements', text: () => good.replace('<body>', '<body><div><p><span><table><tr><td>') },
    { name: 'unquoted attributes', text: () => good.replace('decimals="0"', 'decimals=0') },
    {
      name: 'garbage between tags',
      text: () => good.replace('<body>', '<body><<<>>> & &bogus; <!-- unclosed? --> < p >'),
    },
    {
      name: 'upper-case HTML tags',
      text: () => good.replace('<body>', '<BODY><DIV>').replace('</body>', '</DIV></BODY>'),
    },
    {
      name: 'a script with markup inside',
      text: () => good.replace('<body>', '<body><script>var x = "<ix:nonFraction>9</ix:nonFraction>";</script>'),
    },
    { name: 'CRLF line endings', text: () => good.replace(/\n/g, '\r\n') },
  ];
  for (const c of cases) test(c.name, () => expectFigures(parseFiling(Buffer.from(c.text()), FILE)));

  test('a fact left open is closed at its parent end, and its text is refused when too long', () => {
    const text = good.replace(
      '<body>',
      `<body><div>${'<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">'}${'9'.repeat(300)}</div>`,
    );
    const result = parseFiling(Buffer.from(text), FILE);
    expectFigures(result);
    if (result.ok) assert.equal(result.filing.current.equity, null);
  });
});

describe('DOCTYPEs and entity declarations are never expanded or fetched', () => {
  test('billion laughs completes at once and leaves the entity unexpanded', () => {
    const lol = Array.from({ length: 10 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const text = good
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html [<!ENTITY lol0 "lol">${lol}]>`,
      )
      .replace('TEST COMPANY LIMITED', 'TEST &lol10; LIMITED');
    const started = Date.now();
    const result = parseFiling(Buffer.from(text), FILE);
    assert.ok(Date.now() - started < 1000);
    expectFigures(result);
    if (result.ok) assert.ok((result.filing.entity_name ?? '').length < 100);
  });
  test('an external entity is not resolved', () => {
    const text = good
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      )
      .replace('TEST COMPANY LIMITED', '&xxe;');
    const result = parseFiling(Buffer.from(text), FILE);
    expectFigures(result);
    if (result.ok) assert.ok(!(result.filing.entity_name ?? '').includes('root:'));
  });
  test('an XHTML DOCTYPE is fine', () => {
    const text = good.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    );
    expectFigures(parseFiling(Buffer.from(text), FILE));
  });
});

describe('inputs that are refused, each with its reason', () => {
  const sample = readFileSync(join(accountsSamplesDir, 'Prod223_3384_14033910_20220831.html'));
  const cases: { name: string; bytes: () => Uint8Array; code: ParseErrorCode; maxBytes?: number }[] = [
    { name: 'an empty file', bytes: () => Buffer.alloc(0), code: 'empty' },
    { name: 'a real filing cut in half', bytes: () => sample.subarray(0, sample.length / 2), code: 'truncated' },
    {
      name: 'a real filing cut just before </html>',
      bytes: () => sample.subarray(0, sample.lastIndexOf('</html>')),
      code: 'truncated',
    },
    {
      name: 'a PDF',
      bytes: () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF'),
      code: 'not_accounts',
    },
    {
      name: 'random binary',
      bytes: () => Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)),
      code: 'not_accounts',
    },
    {
      name: 'a zip file',
      bytes: () => Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000', 'latin1'),
      code: 'not_accounts',
    },
    { name: 'JSON', bytes: () => Buffer.from('{"company_number":"01234567"}'), code: 'not_accounts' },
    {
      name: 'an HTML page without inline XBRL',
      bytes: () => Buffer.from('<html><body><p>Annual report</p></body></html>'),
      code: 'not_accounts',
    },
    {
      name: 'an RSS feed',
      bytes: () => Buffer.from('<?xml version="1.0"?><rss><channel><title>x</title></channel></rss>'),
      code: 'not_accounts',
    },
    {
      name: 'an iXBRL document whose numbers are all unreadable',
      bytes: () => Buffer.from(ixDocument(money('Equity', 'cy', 'twelve-ish'))),
      code: 'no_figures',
    },
    { name: 'a file over the size limit', bytes: () => Buffer.from(good), code: 'too_large', maxBytes: 100 },
  ];
  for (const c of cases) {
    test(c.name, () => expectFailure(parseFiling(c.bytes(), FILE, c.maxBytes ? { maxBytes: c.maxBytes } : {}), c.code));
  }
});

test('a 100 MB filing is read in slices and gives its figures', () => {
  const padding = `<p style="font-family:Arial">${'Notes to the financial statements. '.repeat(30)}</p>\n`;
  const [head, tail] = good.split('<body>') as [string, string];
  const parts = [Buffer.from(`${head}<body><div>`)];
  let size = parts[0]!.length;
  const block = Buffer.from(padding.repeat(1000));
  while (size < 100 * 1024 * 1024) {
    parts.push(block);
    size += block.length;
  }
  parts.push(Buffer.from(`</div>${tail}`));
  const bytes = Buffer.concat(parts);
  assert.ok(bytes.length >= 100 * 1024 * 1024);
  expectFigures(parseFiling(bytes, FILE));
});
