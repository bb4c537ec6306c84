// Prometheus metrics (docs/architecture/README.md §2 "metrics"). Each copy of this module counts into a
// registry of its own: the web app's build has one, and the reference services, loaded from source
// when they run embedded, have theirs. GET /metrics (server/app.ts, behind METRICS_TOKEN) answers the
// build's series followed by the services' (`metricsText` of their copy), so the two never share a
// series name and each metric is made once, when its module loads.
import client from "prom-client";
import type { Counter, Gauge, Histogram } from "prom-client";

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

/** This registry's series in the Prometheus text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
