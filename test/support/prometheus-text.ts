/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for asserting on what
 * /metrics serves: every line must be a comment, HELP, TYPE or a sample, or reading fails.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name -> type (counter, gauge, histogram, …). */
  types: Map<string, string>;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+-?\\d+)?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    const where = `line ${index + 1}: ${JSON.stringify(line)}`;
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) {
        if (types.has(type[1]!)) throw new Error(`${where}: a second TYPE for ${type[1]}`);
        types.set(type[1]!, type[2]!);
      } else if (!/^# HELP \S+ /.test(line) && /^# (HELP|TYPE)/.test(line)) {
        throw new Error(`${where}: malformed HELP or TYPE`);
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`${where}: not a sample`);
    samples.push({ name: match[1]!, labels: parseLabels(match[2] ?? '', where), value: parseValue(match[3]!, where) });
  }
  return { samples, types };
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const at = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (!match || match.index !== at)
      throw new Error(`${where}: malformed labels at ${JSON.stringify(text.slice(at))}`);
    if (match[1]! in labels) throw new Error(`${where}: label ${match[1]} twice`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case; prom-client writes "Nan". */
function parseValue(text: string, where: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`${where}: value ${JSON.stringify(text)} is not a number`);
  return value;
}

/** The samples named `name` whose labels include every one of `labels`. */
export function samplesOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
}

/** The value of the one sample named `name` with exactly these labels, or undefined if there is none. */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.keys(labels).length;
  const found = samplesOf(exposition, name, labels).filter((s) => Object.keys(s.labels).length === wanted);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
