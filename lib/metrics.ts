// Prometheus metrics of one process (docs/architecture.md §2 "metrics"): each thread counts into its
// own prom-client default registry (the web app's thread; the data thread of the embedded reference
// services, server/data-thread.ts), and server.ts serves them merged at GET /metrics (behind
// METRICS_TOKEN): the web app's registry plus every source added with addMetricsSource. A metric is made on first use and found by its name afterwards,
// so a module loaded twice (from source by server.ts and inside the app's build) shares one series.
import client from "prom-client";
import type { Counter, Gauge, Histogram, MetricObjectWithValues, MetricValue } from "prom-client";

/** The registry /metrics serves. */
export const registry = client.register;

/** The counter `name` with `labelNames`, made on first use. */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new client.Counter({ name, help, labelNames: [...labelNames] });
}

/** The gauge `name` with `labelNames`, made on first use. */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new client.Gauge({ name, help, labelNames: [...labelNames] });
}

/** Latency buckets in seconds: 5 ms to 10 s. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The histogram `name` (seconds, LATENCY_BUCKETS) with `labelNames`, made on first use. */
export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  return (registry.getSingleMetric(name) as Histogram<L> | undefined) ?? new client.Histogram({ name, help, labelNames: [...labelNames], buckets: LATENCY_BUCKETS });
}

let processMetrics = false;

/**
 * Starts prom-client's process metrics once: resident memory, heap, CPU, open handles, and the event
 * loop's delay (`safewindow_nodejs_eventloop_lag_*`, sampled every 20 ms).
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  client.collectDefaultMetrics({ prefix: "safewindow_", eventLoopMonitoringPrecision: 20 });
}

/** Metrics of another registry (another thread's) as prom-client's `getMetricsAsJSON()` gives them. */
export type MetricsSource = () => Promise<MetricObjectWithValues<MetricValue<string>>[]>;

const sources: MetricsSource[] = [];

/**
 * Adds `source` to what GET /metrics serves (server.ts adds the data thread's registry). Series of
 * the same name and labels in several registries are summed (prom-client's AggregatorRegistry.aggregate).
 */
export function addMetricsSource(source: MetricsSource): void {
  sources.push(source);
}

/**
 * The text of GET /metrics (Prometheus exposition format) and its content type: this registry's
 * metrics merged with every added source's.
 * @throws whatever a source throws (a data thread that has stopped)
 */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  if (sources.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
  const all = await Promise.all([registry.getMetricsAsJSON(), ...sources.map((source) => source())]);
  return { contentType: registry.contentType, body: await client.AggregatorRegistry.aggregate(all).metrics() };
}
