/**
 * How a spreadsheet reads the lead list downloads, for tests: a CSV cell by the rule Excel,
 * LibreOffice Calc and Google Sheets apply on opening a file (a formula giving a string is that
 * string; what looks like a number becomes one, losing leading zeros; the rest is text), and an
 * XLSX sheet's cells with their types, read from the workbook's XML (yauzl unzips it).
 */
import yauzl from 'yauzl';

export type SheetValue = { type: 'text'; value: string } | { type: 'number'; value: number };

/** A CSV cell as a spreadsheet opening the file reads it. */
export function csvCellAsSpreadsheet(cell: string): SheetValue {
  const formula = /^="(.*)"$/.exec(cell);
  if (formula) return { type: 'text', value: formula[1]!.replace(/""/g, '"') };
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cell.trim())) return { type: 'number', value: Number(cell) };
  return { type: 'text', value: cell };
}

async function unzip(buffer: Buffer): Promise<Map<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * The first sheet's rows, each cell typed as the file declares it (t="s": a shared string, t="str"
 * or "inlineStr": text, none: a number), with the number format code of text cells' style.
 */
export async function readXlsx(buffer: Buffer): Promise<{ rows: (SheetValue | null)[][]; textFormatted: Set<string> }> {
  const files = await unzip(buffer);
  const strings = [
    ...(files.get('xl/sharedStrings.xml') ?? '').matchAll(/<si>(?:<t[^>]*>([\s\S]*?)<\/t>)?<\/si>/g),
  ].map((m) => unescape(m[1] ?? ''));
  const styles = files.get('xl/styles.xml') ?? '';
  const formats = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
  );
  const xfs = [...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '').matchAll(/<xf\b([^>]*)>/g)].map(
    (m) => /numFmtId="(\d+)"/.exec(m[1]!)?.[1] ?? '0',
  );
  const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
  const textFormatted = new Set<string>();
  const rows = [...sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells: (SheetValue | null)[] = [];
    for (const cell of row[1]!.matchAll(/<c r="([A-Z]+)(\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const column = cell[1]!.split('').reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const attributes = cell[3]!;
      const type = /t="(\w+)"/.exec(attributes)?.[1];
      const style = /s="(\d+)"/.exec(attributes)?.[1];
      if (style !== undefined && formats.get(xfs[Number(style)] ?? '') === '@')
        textFormatted.add(`${cell[1]}${cell[2]}`);
      const raw = /<v>([\s\S]*?)<\/v>/.exec(cell[4] ?? '')?.[1] ?? /<t[^>]*>([\s\S]*?)<\/t>/.exec(cell[4] ?? '')?.[1];
      cells[column] =
        raw === undefined
          ? null
          : type === 's'
            ? { type: 'text', value: strings[Number(raw)]! }
            : type === 'str' || type === 'inlineStr'
              ? { type: 'text', value: unescape(raw) }
              : { type: 'number', value: Number(raw) };
    }
    return cells;
  });
  return { rows, textFormatted };
}
