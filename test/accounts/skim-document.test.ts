/**
 * The skimmer must read exactly what the scanner reads from the whole document. Every case is
 * checked twice: against the scanner given the whole text (the same `ScannedDocument`, field by
 * field), and against what the case is about (so that a case in which both read nothing useful
 * cannot pass by accident).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WANTED_TEXT } from '../../src/accounts/concepts.ts';
import { decodeInSlices, decodeWhole } from '../../src/accounts/decode-text.ts';
import { DocumentScanner } from '../../src/accounts/scan-document.ts';
import type { ScannedDocument } from '../../src/accounts/scan-document.ts';
import { skimDocument } from '../../src/accounts/skim-document.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { ixDocument, money } from '../support/ixbrl-doc.ts';
import { accountsSamplesDir } from '../support/samples.ts';

const options = { wantedText: WANTED_TEXT };

function scanWhole(text: string): ScannedDocument {
  const scanner = new DocumentScanner(options);
  scanner.write(text);
  return scanner.finish();
}

function skimmedLikeWhole(text: string): ScannedDocument {
  const skimmed = skimDocument(text, options);
  assert.deepStrictEqual(skimmed, scanWhole(text));
  return skimmed;
}

const texts = (doc: ScannedDocument) => doc.facts.map((fact) => fact.text);
const names = (doc: ScannedDocument) => doc.facts.map((fact) => fact.name);
const entityName = (text: string) =>
  `<ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd">${text}</ix:nonNumeric>`;
const INLINE = 'http://www.xbrl.org/2013/inlineXBRL';

interface Case {
  name: string;
  doc: string;
  expect: (doc: ScannedDocument) => void;
}

const cases: Case[] = [
  {
    name: 'plain facts, contexts and units',
    doc: ixDocument(money('Equity', 'cy', '1,500') + money('Equity', 'py', '1,200')),
    expect: (doc) => {
      assert.deepEqual(texts(doc), ['TEST COMPANY LIMITED', '1,500', '1,200']);
      assert.equal(doc.contexts.size, 4);
      assert.equal(doc.contexts.get('cy')!.instant, '2023-12-31');
      assert.equal(doc.units.get('GBP'), 'GBP');
      assert.equal(doc.schemaRefs.length, 1);
      assert.equal(doc.rootClosed, true);
    },
  },
  {
    name: 'entities in a fact',
    doc: ixDocument(money('Equity', 'cy', '1&#44;500') + entityName('SMITH &amp; SONS&nbsp;LTD')),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['1,500', 'SMITH & SONS\u00a0LTD']),
  },
  {
    name: 'an entity in an attribute',
    doc: ixDocument(money('Equity', 'c&#121;', '7')),
    expect: (doc) => assert.equal(doc.facts[1]!.contextRef, 'cy'),
  },
  {
    name: 'CDATA in a fact',
    doc: ixDocument(entityName('<![CDATA[A <B> & C]]>')),
    expect: (doc) => assert.equal(doc.facts[1]!.text, 'A <B> & C'),
  },
  {
    name: 'tags inside comments are not read',
    doc: ixDocument(
      `<!-- ${money('Equity', 'cy', '999')} --><!--> ${money('Equity', 'cy', '1')} <!---> <!-- a --!> ${money('Equity', 'cy', '2')} <!-- ${money('Equity', 'cy', '998')} -->`,
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['1', '2']),
  },
  {
    name: 'nested spans in a fact',
    doc: ixDocument(money('Equity', 'cy', '<span class="a">1</span>,<b>5<i>00</i></b>')),
    expect: (doc) => assert.equal(doc.facts[1]!.text, '1,500'),
  },
  {
    name: 'upper-case tags: prefixes are case-sensitive, and attribute names (xmlns:IX) are read in lower case',
    doc: ixDocument(
      `<IX:NONFRACTION name="core:Equity" contextRef="cy" unitRef="GBP">5</IX:NONFRACTION>` +
        `<div xmlns:IX="${INLINE}"><IX:NONFRACTION name="core:Equity" contextRef="cy" unitRef="GBP">6</IX:NONFRACTION></div>` +
        `<SPAN>${money('Equity', 'py', '7')}</SPAN>`,
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['7']),
  },
  {
    name: 'a closing tag in another case does not close the fact',
    doc: ixDocument(
      `<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">8</IX:NONFRACTION> and more</ix:nonFraction >`,
    ),
    expect: (doc) => assert.equal(doc.facts[1]!.text, '8 and more'),
  },
  {
    name: 'a fact whose closing tag is missing collects the text after it',
    doc: ixDocument(
      `<p><ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">12</p><p>34</p>${money('Equity', 'py', '5')}`,
    ),
    expect: (doc) => assert.deepEqual(names(doc).slice(1), ['core:Equity', 'core:Equity']),
  },
  {
    name: 'ix:exclude inside a text fact',
    doc: ixDocument(entityName('ACME <ix:exclude>(formerly WIDGETS) </ix:exclude>LIMITED')),
    expect: (doc) => assert.equal(doc.facts[1]!.text, 'ACME LIMITED'),
  },
  {
    name: 'continuation chains',
    doc: ixDocument(
      `<ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd" continuedAt="k1">ACME</ix:nonNumeric>` +
        `<p>other text</p><ix:continuation id="k1" continuedAt="k2"> WIDGETS</ix:continuation>` +
        `<ix:continuation id="k2"><span> LIMITED</span></ix:continuation>`,
    ),
    expect: (doc) => {
      assert.equal(doc.facts[1]!.continuedAt, 'k1');
      assert.deepEqual(doc.continuations.get('k1'), { text: ' WIDGETS', continuedAt: 'k2' });
      assert.deepEqual(doc.continuations.get('k2'), { text: ' LIMITED', continuedAt: null });
    },
  },
  {
    name: 'a numeric fact nested in a text fact that is not read',
    doc: ixDocument(
      `<ix:nonNumeric name="core:AccountingPoliciesNote" contextRef="cyd"><p>Policy text ${money('Equity', 'cy', '42')}</p></ix:nonNumeric>`,
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['42']),
  },
  {
    name: 'tag-like text in script, style, title and textarea is not markup',
    doc: ixDocument(
      `<script>var x = '${money('Equity', 'cy', '999')}'; if (a </b) {}</script>` +
        `<style>p { content: "${money('Equity', 'cy', '998')}" }</STYLE >` +
        `<textarea>${money('Equity', 'cy', '997')}</textarea><script/>${money('Equity', 'cy', '3')}`,
      { head: `<title>${money('Equity', 'cy', '996')} &amp; co</title>` },
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['3']),
  },
  {
    name: 'markup inside attribute values and bogus comments is not read',
    doc: ixDocument(
      `<span title='${money('Equity', 'cy', '999')}' data-x="a > b">x</span>` +
        `<?php echo "${money('Equity', 'cy', '998')}" ?>` +
        `</ ${money('Equity', 'cy', '997')}>` +
        `a < b <<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">4</ix:nonFraction>`,
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['4']),
  },
  {
    name: 'attributes unquoted, single-quoted, without values, repeated, upper-case',
    doc: ixDocument(
      `<ix:nonFraction NAME=core:Equity contextRef='cy' unitRef=GBP nil decimals="0" decimals="-3">5</ix:nonFraction>`,
    ),
    expect: (doc) => {
      const fact = doc.facts[1]!;
      assert.equal(fact.name, 'core:Equity');
      assert.equal(fact.contextRef, 'cy');
      assert.equal(fact.unitRef, 'GBP');
      assert.equal(fact.decimals, '-3');
    },
  },
  {
    name: 'namespaces declared below the root',
    doc: ixDocument(
      `<div xmlns:inl="${INLINE}"><inl:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">1</inl:nonFraction></div>` +
        `<inl:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">2</inl:nonFraction>` +
        `<nonFraction xmlns="${INLINE}" name="core:Equity" contextRef="py" unitRef="GBP">3</nonFraction>` +
        `<div xmlns:ix="http://example.com/not-inline">${money('Equity', 'cy', '4')}</div>${money('Equity', 'cy', '5')}`,
    ),
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['1', '3', '5']),
  },
  {
    name: 'declarations that repeat the namespaces in force, on facts and other elements, change nothing',
    doc: ixDocument(
      money('Equity', 'cy', '1', `xmlns:ix="${INLINE}"`) +
        `<span xmlns="http://www.w3.org/1999/xhtml" XMLNS:IX=" ${INLINE} ">${money('Equity', 'py', '2', 'xmlns:core="x"')}</span>` +
        `<span xmlns:ix="${INLINE}" xmlns:ix="http://example.com/">${money('Equity', 'cy', '3')}</span>` +
        `<span xmlns:ix="http://example.com/" xmlns:ix="${INLINE}">${money('Equity', 'cy', '4')}</span>` +
        `<span xmlns:ix="http&#58;//example.com/">${money('Equity', 'cy', '5')}</span>` +
        money('Equity', 'cy', '6', 'xmlns:ix="http://example.com/"'),
    ),
    // The last of repeated attributes counts; an entity in a declaration is decoded before it counts.
    expect: (doc) => assert.deepEqual(texts(doc).slice(1), ['1', '2', '4']),
  },
  {
    name: 'self-closing facts and elements',
    doc: ixDocument(
      `<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP" xsi:nil="true"/><br/>${money('Equity', 'py', '6')}`,
    ),
    expect: (doc) => {
      assert.equal(doc.facts[1]!.nil, true);
      assert.equal(doc.facts[2]!.text, '6');
    },
  },
  {
    name: 'contexts with dimensions and typed members, units with a divide, default-namespace contexts',
    doc: ixDocument(money('Equity', 'dim', '9'), {
      extraContexts: [{ id: 'dim', instant: '2023-12-31', members: [['EquityClassesDimension', 'OrdinaryShares']] }],
      head: '',
    }).replace(
      '</ix:resources>',
      `<context xmlns="http://www.xbrl.org/2003/instance" id="plain"><entity><identifier scheme="x">01234567</identifier><segment><xbrldi:typedMember dimension="core:Typed">&lt;v&gt;</xbrldi:typedMember></segment></entity><period><instant>2023-12-31</instant></period></context>` +
        `<xbrli:unit id="ps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit></ix:resources>`,
    ),
    expect: (doc) => {
      assert.deepEqual(doc.contexts.get('dim')!.dimensions, [
        { dimension: 'EquityClassesDimension', member: 'OrdinaryShares' },
      ]);
      assert.deepEqual(doc.contexts.get('plain')!.dimensions, [{ dimension: 'Typed', member: '<v>' }]);
      assert.equal(doc.units.get('ps'), 'GBP/shares');
    },
  },
  {
    name: 'a fact whose text is too long',
    doc: ixDocument(money('Equity', 'cy', '1'.repeat(300))),
    expect: (doc) => assert.equal(doc.facts[1]!.overflow, true),
  },
  {
    name: 'plaintext makes the rest of the document text',
    doc: ixDocument(`${money('Equity', 'cy', '1')}<plaintext>${money('Equity', 'cy', '2')}`),
    expect: (doc) => {
      assert.deepEqual(texts(doc).slice(1), ['1']);
      assert.equal(doc.rootClosed, false);
    },
  },
  {
    name: 'an upper-case root element',
    doc: ixDocument(money('Equity', 'cy', '3'))
      .replace('<html ', '<HTML ')
      .replace('</html>', '</HTML>'),
    expect: (doc) => {
      assert.equal(doc.rootName, 'HTML');
      assert.equal(doc.rootClosed, true);
    },
  },
  {
    name: 'a root closed in another case is not closed',
    doc: ixDocument(money('Equity', 'cy', '3')).replace('</html>', '</HTML>'),
    expect: (doc) => assert.equal(doc.rootClosed, false),
  },
  {
    name: 'plain XBRL is read whole',
    doc: `<?xml version="1.0"?><xbrli:xbrl xmlns:xbrli="http://www.xbrl.org/2003/instance"><xbrli:context id="c"><xbrli:entity><xbrli:identifier scheme="x">01234567</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2023-12-31</xbrli:instant></xbrli:period></xbrli:context><core:Equity contextRef="c" unitRef="GBP" decimals="0">10</core:Equity></xbrli:xbrl>`,
    expect: (doc) => {
      assert.equal(doc.kind, 'xbrl');
      assert.deepEqual(texts(doc), ['10']);
    },
  },
  {
    name: 'a document that is not accounts',
    doc: '<!DOCTYPE html><svg><text>1</text></svg>',
    expect: (doc) => assert.equal(doc.kind, 'other'),
  },
  {
    name: 'no markup at all',
    doc: 'just text & no tags',
    expect: (doc) => assert.equal(doc.rootName, null),
  },
];

describe('skimDocument reads what the scanner reads from the whole document', () => {
  for (const c of cases) {
    test(c.name, () => c.expect(skimmedLikeWhole(c.doc)));
  }
});

describe('documents cut short anywhere', () => {
  const doc = cases[0]!.doc.replace(
    '</body>',
    `<!-- note --><script>x</script>${entityName('A &amp; B')}<![CDATA[c]]><span title='t'>${money('Equity', 'cy', '<b>1</b>')}</span></body>`,
  );
  test('every cut point of a small filing', () => {
    for (let cut = 0; cut <= doc.length; cut++) skimmedLikeWhole(doc.slice(0, cut));
  });
});

describe('markup mangled at random', () => {
  // Snippets that change how the text around them is tokenised, dropped at random places of a
  // filing (seeded): inside tags, attribute values, facts and contexts as well as between them.
  const snippets = [
    '<!--',
    '-->',
    '--!>',
    '<![CDATA[',
    ']]>',
    '<script>',
    '</script>',
    '<STYLE>',
    '</style >',
    '<title>',
    '<plaintext>',
    '"',
    "'",
    '<',
    '>',
    '/>',
    '</',
    '&amp;',
    '&',
    '=',
    ' xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"',
    ' xmlns="http://www.xbrl.org/2013/inlineXBRL"',
    `<div xmlns:ix="http://example.com/">`,
    '</div>',
    '<ix:exclude>',
    '</ix:exclude>',
    '<ix:nonFraction name="core:Equity" contextRef="cy" unitRef="GBP">',
    '</ix:nonFraction>',
    '<IX:NONFRACTION>',
    '<?pi ?>',
    '<!DOCTYPE x>',
    '</html>',
  ];
  const base = ixDocument(
    money('Equity', 'cy', '1,500') +
      entityName('A <b>B</b> &amp; C') +
      `<ix:nonNumeric name="bus:EntityCurrentLegalOrRegisteredName" contextRef="cyd" continuedAt="k">X</ix:nonNumeric><ix:continuation id="k">Y<ix:exclude>Z</ix:exclude></ix:continuation>` +
      `<table><tr><td class="n">${money('CashBankOnHand', 'py', '<span>2</span>00')}</td></tr></table>`,
  );
  test('600 mangled filings', () => {
    let seed = 20261126;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 600; round++) {
      let doc = base;
      for (let k = 1 + random(4); k > 0; k--) {
        const at = random(doc.length + 1);
        doc = doc.slice(0, at) + snippets[random(snippets.length)] + doc.slice(at);
      }
      skimmedLikeWhole(doc);
    }
  });
});

describe('real and generated filings', () => {
  test('every real sample', () => {
    let read = 0;
    for (const name of readdirSync(accountsSamplesDir).sort()) {
      if (!/\.(x?html?|xml)$/i.test(name)) continue;
      const { text } = decodeWhole(readFileSync(join(accountsSamplesDir, name)));
      const doc = skimmedLikeWhole(text);
      if (doc.facts.length > 0) read++;
    }
    assert.ok(read >= 45, `only ${read} samples had facts`);
  });

  test('the 286 generated filings of 100 companies over three years, every style', () => {
    let count = 0;
    for (const filing of syntheticFilings({ seed: 7, companies: 100, yearsPerCompany: 3 })) {
      const doc = skimmedLikeWhole(filing.bytes.toString('utf8'));
      assert.ok(doc.facts.length > 0, filing.fileName);
      count++;
    }
    assert.ok(count >= 250, `only ${count} generated filings`);
  });
});

describe('what the scanner is given', () => {
  test('a generated filing: the root, the header and few other tags, not the page', () => {
    const filing = syntheticFilings({ seed: 11, companies: 5, yearsPerCompany: 1 }).next().value!;
    const text = filing.bytes.toString('utf8');
    let written = 0;
    const write = DocumentScanner.prototype.write;
    DocumentScanner.prototype.write = function (this: DocumentScanner, piece: string) {
      written += piece.length;
      write.call(this, piece);
    };
    try {
      assert.ok(skimDocument(text, options).facts.length > 10);
    } finally {
      DocumentScanner.prototype.write = write;
    }
    assert.ok(written < text.length * 0.3, `${written} of ${text.length} characters tokenised`);
  });
});

describe('decodeWhole', () => {
  test('gives the text decodeInSlices gives, whatever the slices', () => {
    const text = ixDocument(entityName('CAFÉ £ 株式会社 😀 LTD'));
    for (const bytes of [Buffer.from(text), Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from(text)])]) {
      const parts: string[] = [];
      const warning = decodeInSlices(bytes, (t) => parts.push(t), 7);
      assert.deepEqual(decodeWhole(bytes), { text: parts.join(''), warning });
    }
    const latin = Buffer.from(text.replace('UTF-8', 'ISO-8859-1').replace(/[\u0100-\uffff]/g, '?'), 'latin1');
    assert.equal(decodeWhole(latin).text.includes('CAFÉ £'), true);
  });
});
