/**
 * The process's counters in the Prometheus text format (version 0.0.4), kept by hand: a few
 * counters, two latency histograms and gauges read at scrape time. Labels are route patterns
 * and stable codes only, never user text, so their number stays small.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([key, value]) => `${key}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`).join(",")}}`;
}

class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`, ...[...this.values].map(([key, value]) => `${this.name}${key} ${value}`)];
  }
}

class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  observe(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    // Setting a key again keeps its place in the map, so the series render in first-seen order.
    const entry = this.series.get(key) ?? { labels, counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
    this.series.set(key, entry);
    LATENCY_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) entry.counts[i]!++;
    });
    entry.sum += seconds;
    entry.count++;
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      LATENCY_BUCKETS.forEach((bound, i) => lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[i]}`));
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: "+Inf" })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines;
  }
}

export interface Gauge {
  name: string;
  help: string;
  read(): number;
}

export class Metrics {
  readonly requests = new Counter("pastor_http_requests_total", "HTTP requests answered, by method, route and status.");
  readonly latency = new Histogram("pastor_http_request_duration_seconds", "Time to the response headers, by route.");
  readonly refusals = new Counter("pastor_refusals_total", "Requests refused by a limit, by reason (body_too_large, rate_limited, busy, ...).");
  /** Answers that began with the care notice (core/reading/crisis.ts), by kind: counted, never logged per request. */
  readonly careNotices = new Counter("pastor_care_notices_total", "Answers that began with the care notice for a person at risk, by kind (self_harm, violence).");
  readonly llmErrors = new Counter("pastor_llm_errors_total", "Answers that ended in an error event, by code.");
  readonly firstToken = new Histogram(
    "pastor_chat_first_token_seconds",
    "Time from a chat request's arrival at the route to its first token event, as this server writes it (the client sees it one network trip later).",
  );
  private readonly gauges: Gauge[] = [];

  gauge(name: string, help: string, read: () => number): void {
    this.gauges.push({ name, help, read });
  }

  render(): string {
    const lines = [...this.requests.render(), ...this.latency.render(), ...this.firstToken.render(), ...this.refusals.render(), ...this.careNotices.render(), ...this.llmErrors.render()];
    for (const gauge of this.gauges) lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`, `${gauge.name} ${gauge.read()}`);
    return `${lines.join("\n")}\n`;
  }
}
