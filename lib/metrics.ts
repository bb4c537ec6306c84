// Prometheus metrics (docs/architecture/README.md §2 "metrics"). Each copy of this module counts into a
// registry of its own: the web app's build has one, and the data thread of the embedded reference
// services (server/data-thread.ts) has its own. GET /metrics (server/app.ts, behind METRICS_TOKEN)
// answers the build's series merged with the data thread's (`metricsText` with its source), so each
// metric is made once, when its module loads, and a series both have (the process metrics) is merged.
import client from "prom-client";
import type { Counter, Gauge, Histogram, MetricObjectWithValues, MetricValue } from "prom-client";

/** This copy's registry. */
export const registry = new client.Registry();

/**
 * The counter `name` with `labelNames`.
 * @throws when this registry already holds a metric of that name
 */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new client.Counter({ name, help, labelNames: [...labelNames], registers: [registry] });
}

/**
 * The gauge `name` with `labelNames`.
 * @throws when this registry already holds a metric of that name
 */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return new client.Gauge({ name, help, labelNames: [...labelNames], registers: [registry] });
}

/** Latency buckets in seconds: 5 ms to 10 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The histogram `name` (seconds, LATENCY_BUCKETS) with `labelNames`.
 * @throws when this registry already holds a metric of that name
 */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  return new client.Histogram({ name, help, labelNames: [...labelNames], buckets: LATENCY_BUCKETS, registers: [registry] });
}

let processMetrics = false;

/**
 * Starts prom-client's process metrics once: resident memory, heap, CPU, open handles, and the event
 * loop's delay (`safewindow_nodejs_eventloop_lag_*`, sampled every 20 ms).
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  client.collectDefaultMetrics({ register: registry, prefix: "safewindow_", eventLoopMonitoringPrecision: 20 });
}

/** Metrics of another registry (another thread's) as prom-client's `getMetricsAsJSON()` gives them. */
export type MetricsSource = () => Promise<MetricObjectWithValues<MetricValue<string>>[]>;

/**
 * The text of GET /metrics (Prometheus exposition format) and its content type: this registry's
 * metrics merged with each of `sources`' (series of the same name and labels merged by
 * prom-client's AggregatorRegistry.aggregate, each metric's own aggregator: summed by default).
 * @throws whatever a source throws (a data thread that has stopped)
 */
export async function metricsText(sources: MetricsSource[] = []): Promise<{ contentType: string; body: string }> {
  if (sources.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
  const all = await Promise.all([registry.getMetricsAsJSON(), ...sources.map((source) => source())]);
  return { contentType: registry.contentType, body: await client.AggregatorRegistry.aggregate(all).metrics() };
}
