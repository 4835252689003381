/**
 * Which pages hold the balance sheet, the profit and loss account and the employees note, from
 * the text of each page's top band read cheaply (low resolution): statement titles are printed
 * at the top of their page. Group accounts print the consolidated statements before the
 * parent company's, and those are the ones wanted.
 */

export interface StatementPages {
  balanceSheet: number | null;
  profitAndLoss: number | null;
  /** Pages whose top mentions employees or staff, in order: the note may be on any of them. */
  employees: number[];
}

const NOT_A_STATEMENT =
  /contents|notes to the|notes forming|directors'? report|responsibilit|auditor|changes in equity|accounting policies|cash flows?|strategic report|report of the directors|continued/;
const BALANCE_SHEET = /balance sheet|statement of financial position|financial position/;
const PROFIT_AND_LOSS =
  /profit and loss account|income statement|statement of comprehensive income|statement of income|profit and loss|income and retained earnings/;
const EMPLOYEES = /employees|staff costs|staff numbers|employee (information|numbers)|personnel|particulars of staff/;

/** A title stands on a short line of its own, not in running text ("at the balance sheet date"). */
function titled(text: string, title: RegExp): boolean {
  return text.split('\n').some((line) => title.test(line) && line.trim().split(/\s+/).length <= 8);
}

function scoreOf(text: string, title: RegExp): number {
  if (!titled(text, title)) return 0;
  let score = 1;
  if (NOT_A_STATEMENT.test(text)) score -= 0.8;
  if (/consolidated|group/.test(text)) score += 0.5;
  // A contents page names every statement.
  const titles = [BALANCE_SHEET, PROFIT_AND_LOSS, /changes in equity/, /cash flows?/].filter((t) =>
    t.test(text),
  ).length;
  if (titles >= 3) score -= 0.9;
  return score;
}

/**
 * `heads[i]` is the lower-cased text of the top of page i + 1, `wholes[i]` of as much of the
 * page as was read.
 */
export function findStatementPages(heads: readonly string[], wholes: readonly string[]): StatementPages {
  const texts = heads;
  const best = (title: RegExp, not?: RegExp) => {
    let page: number | null = null;
    let top = 0.5;
    texts.forEach((text, i) => {
      let score = scoreOf(text, title);
      if (not?.test(text) && !title.test(text.replace(not, ''))) score -= 0.3;
      if (score > top) {
        top = score;
        page = i + 1;
      }
    });
    return page;
  };
  const balanceSheet = best(BALANCE_SHEET);
  // "Statement of comprehensive income" follows the income statement in IFRS accounts; the
  // income statement is the one with turnover on it.
  const profitAndLoss = best(PROFIT_AND_LOSS, /comprehensive income/);
  const employees = wholes
    .map((text, i) => ({ text, page: i + 1 }))
    .filter(
      ({ text, page }) =>
        EMPLOYEES.test(text) && page > (balanceSheet ?? 0) && !/directors'? report|report of the directors/.test(text),
    )
    .map(({ page }) => page);
  return { balanceSheet, profitAndLoss, employees };
}
