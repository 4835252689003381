/**
 * The PdfEstimateWriter and PdfEstimateReader contract on every store (PGlite and a real
 * PostgreSQL): an estimate read back as stored, a document stored again replacing its entry, a
 * company's estimates newest balance sheet date first, and an estimate that breaks the port's
 * promises refused whole with the document and the field named. Also the mapping from the PDF
 * reader's result to the stored estimate.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { AppError } from '../../src/errors.ts';
import { pdfEstimateOf } from '../../src/pdf-accounts/pdf-estimate.ts';
import type { PdfFiling } from '../../src/pdf-accounts/read-pdf-accounts.ts';
import type { PdfEstimate } from '../../src/ports/pdf-estimates.ts';
import { testStores, useStore } from '../support/databases.ts';

const SHA = 'ab'.repeat(32);

function estimate(overrides: Partial<PdfEstimate> = {}): PdfEstimate {
  return {
    companyNumber: '30000001',
    documentId: 'doc-2023',
    transactionId: 'MzM4OTk5OTk5OWFkaXF6a2N4',
    sha256: SHA,
    balanceSheetDate: '2023-12-31',
    periodStart: '2023-01-01',
    standard: 'FRS 102',
    current: { ...emptyFigures(), net_assets: 125_000, cash: 40_000, creditors: 9_000 },
    prior: { ...emptyFigures(), net_assets: 100_000 },
    confidence: { net_assets: 'high', cash: 'medium', creditors: 'low' },
    warnings: ['the header says "£" over figures in £000'],
    readAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

for (const kind of testStores) {
  describe(`${kind.name}: PdfEstimateWriter and PdfEstimateReader`, () => {
    const db = useStore(kind);

    test('an estimate is read back as it was stored', async () => {
      const store = createPdfEstimateStore(db.sql);
      await store.savePdfEstimate(estimate());
      assert.deepEqual(await store.pdfEstimatesOf('30000001'), [estimate()]);
      assert.deepEqual(await store.pdfEstimatesOf('30000009'), [], 'another company has none');
    });

    test('storing the same document again replaces its entry', async () => {
      const store = createPdfEstimateStore(db.sql);
      const first = estimate({ companyNumber: '30000002', documentId: 'doc-again' });
      await store.savePdfEstimate(first);
      const again = {
        ...first,
        current: { ...emptyFigures(), net_assets: 130_000 },
        prior: null,
        confidence: { net_assets: 'medium' as const },
        warnings: [],
        readAt: '2026-11-21T09:30:00.000Z',
      };
      await store.savePdfEstimate(again);
      assert.deepEqual(await store.pdfEstimatesOf('30000002'), [again]);
    });

    test("a company's estimates come newest balance sheet date first", async () => {
      const store = createPdfEstimateStore(db.sql);
      for (const [documentId, balanceSheetDate] of [
        ['doc-a', '2021-03-31'],
        ['doc-b', '2023-03-31'],
        ['doc-c', '2022-03-31'],
      ] as const)
        await store.savePdfEstimate(estimate({ companyNumber: '30000003', documentId, balanceSheetDate }));
      assert.deepEqual(
        (await store.pdfEstimatesOf('30000003')).map((e) => [e.documentId, e.balanceSheetDate]),
        [
          ['doc-b', '2023-03-31'],
          ['doc-c', '2022-03-31'],
          ['doc-a', '2021-03-31'],
        ],
      );
    });

    const refusals: { name: string; change: Partial<PdfEstimate>; says: RegExp }[] = [
      { name: 'a company number that cannot be one', change: { companyNumber: '123' }, says: /companyNumber "123"/ },
      { name: 'a date that is no date', change: { balanceSheetDate: '2023-02-30' }, says: /balanceSheetDate/ },
      { name: 'a sha256 that is not one', change: { sha256: 'xyz' }, says: /sha256/ },
      {
        name: 'a figure without its confidence',
        change: { confidence: { net_assets: 'high', cash: 'medium' } },
        says: /confidence\.creditors must be high, medium or low/,
      },
      {
        name: 'a confidence for a null figure',
        change: { confidence: { net_assets: 'high', cash: 'medium', creditors: 'low', turnover: 'high' } },
        says: /confidence\.turnover is given for a null figure/,
      },
      {
        name: 'a figure that is not a number',
        change: { current: { ...emptyFigures(), net_assets: Number.NaN } },
        says: /current\.net_assets is not a finite number/,
      },
    ];
    for (const { name, change, says } of refusals) {
      test(`refused whole, naming the document and the field: ${name}`, async () => {
        const store = createPdfEstimateStore(db.sql);
        const bad = estimate({ companyNumber: '30000004', documentId: 'doc-bad', ...change });
        await assert.rejects(store.savePdfEstimate(bad), (error: unknown) => {
          assert.ok(error instanceof AppError);
          assert.equal(error.code, 'INVALID_INPUT');
          assert.match(error.message, /document doc-bad/);
          assert.match(error.message, says);
          return true;
        });
        assert.deepEqual(await store.pdfEstimatesOf(bad.companyNumber), [], 'nothing was written');
      });
    }
  });
}

describe('pdfEstimateOf', () => {
  test("the reader's result with the document's identity is the estimate stored", () => {
    const filing: PdfFiling = {
      file: 'scan.pdf',
      company_number: '30000005',
      company_number_source: 'document',
      entity_name: 'SCANNED LIMITED',
      balance_sheet_date: '2022-06-30',
      period_start: null,
      standard: 'unknown',
      current: { ...emptyFigures(), equity: 5_000 },
      prior_balance_sheet_date: '2021-06-30',
      prior_period_start: null,
      prior: null,
      quality: [],
      warnings: ['two readings of equity; the balance sheet sums chose one'],
      source: 'pdf_ocr',
      confidence: { equity: 'medium' },
      pages: { balance_sheet: 3, profit_and_loss: null, employees: null },
    };
    assert.deepEqual(
      pdfEstimateOf(filing, {
        documentId: 'doc-x',
        transactionId: null,
        sha256: SHA.toUpperCase(),
        readAt: '2026-11-22T00:00:00Z',
      }),
      {
        companyNumber: '30000005',
        documentId: 'doc-x',
        transactionId: null,
        sha256: SHA,
        balanceSheetDate: '2022-06-30',
        periodStart: null,
        standard: 'unknown',
        current: { ...emptyFigures(), equity: 5_000 },
        prior: null,
        confidence: { equity: 'medium' },
        warnings: ['two readings of equity; the balance sheet sums chose one'],
        readAt: '2026-11-22T00:00:00Z',
      },
    );
  });
});
