/**
 * Tesseract's TSV output as words with their boxes, and those words as the lines of a page. The
 * lines are rebuilt from the boxes rather than taken from Tesseract's own line numbers, because
 * Tesseract splits a table row into several blocks (label, note, each column) and numbers each
 * block's lines on its own; a row of a statement is the words whose boxes share a height.
 */

export interface Word {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Tesseract's confidence, 0–100. */
  conf: number;
}

export interface Line {
  words: Word[];
  top: number;
  bottom: number;
  /** The words joined by spaces, left to right. */
  text: string;
}

/** The words of one page of `tesseract ... tsv` output (level-5 rows with text). */
export function parseTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    if (text === '') continue;
    const [left, top, width, height, conf] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    words.push({ text, left, top, right: left + width, bottom: top + height, conf });
  }
  return words;
}

/**
 * The lines of a page, top to bottom: a word joins the line whose vertical middle band it
 * overlaps most, so that a label and its figures far to the right stay one row even when the
 * scan is slightly skewed.
 */
export function groupLines(words: readonly Word[]): Line[] {
  const sorted = [...words].sort((a, b) => a.top + a.bottom - (b.top + b.bottom));
  const lines: { words: Word[]; top: number; bottom: number; mid: number }[] = [];
  for (const word of sorted) {
    const mid = (word.top + word.bottom) / 2;
    const height = word.bottom - word.top;
    let best: (typeof lines)[number] | null = null;
    let bestDistance = Infinity;
    for (let i = lines.length - 1; i >= 0 && i >= lines.length - 4; i--) {
      const line = lines[i]!;
      const distance = Math.abs(line.mid - mid);
      const lineHeight = line.bottom - line.top;
      if (distance < Math.max(6, 0.5 * Math.min(height, lineHeight)) && distance < bestDistance) {
        best = line;
        bestDistance = distance;
      }
    }
    if (best) {
      best.words.push(word);
      best.top = Math.min(best.top, word.top);
      best.bottom = Math.max(best.bottom, word.bottom);
      best.mid = (best.mid * (best.words.length - 1) + mid) / best.words.length;
    } else {
      lines.push({ words: [word], top: word.top, bottom: word.bottom, mid });
    }
  }
  return lines
    .map((line) => {
      const ordered = line.words.sort((a, b) => a.left - b.left);
      return { words: ordered, top: line.top, bottom: line.bottom, text: ordered.map((w) => w.text).join(' ') };
    })
    .sort((a, b) => a.top - b.top);
}
