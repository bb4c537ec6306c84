/**
 * The app's own queue of uploads to the consumer API (docs/architecture/results-pipeline.md §5
 * "Uploads at once"): at most `UPLOADS_AT_ONCE` uploads (a file, or a result by link) of this process
 * are at the consumer API at once; more wait here, in order, for at most `UPLOAD_QUEUE_WAIT_MS`,
 * while the waiting ones hold at most `maxWaitingUploadBytes` of files and number at most
 * `maxWaitingUploads`. A burst of uploads then waits a little instead of being
 * turned away by the consumer API's own limit (`MAX_CONCURRENT_UPLOADS`, 32), and only an upload that
 * does not get its turn in time is answered `busy` (503 with Retry-After: result.server.ts).
 * p-queue keeps the order and the count; the bounded wait is a timer that aborts the task only while
 * it waits (a started upload always runs to its answer).
 *
 * When the server's drain begins (SIGTERM or SIGINT; docs/operating.md "Shutdown"), every upload still
 * waiting is answered `busy` at once, and so is every upload that arrives after: a wait of up to
 * UPLOAD_QUEUE_WAIT_MS would outlast the drain's 10 s and be cut, while the person retrying after
 * Retry-After reaches another replica or the restarted server. Uploads already at the consumer API
 * finish within the drain.
 */
import PQueue from "p-queue";
import type { Messages } from "~/messages/catalogues";
import { getConfig } from "../config.server";
import { failure, type Result } from "./result.server";
import { counter, gauge } from "../../../lib/metrics.ts";

/**
 * The files of the uploads waiting for their turn, summed, bytes (64 MiB): each waiting upload holds
 * its file (at most 10 MB) in memory, so memory bounds the wait by bytes, not by count. An upload
 * whose file would pass the sum is `busy` at once; a burst of ordinary reports (tens to hundreds of
 * KB) all wait.
 */
export const maxWaitingUploadBytes = 64 * 1024 * 1024;

/** Uploads that may wait for their turn, whatever their size (each also holds a request and a timer); one more is `busy` at once. */
export const maxWaitingUploads = 256;

/** GET /metrics: uploads of the app waiting for their turn at the consumer API now. */
const waitingGauge = gauge("safewindow_upload_queue_length", "Uploads waiting in the app's queue for their turn at the consumer API.", []);

/** GET /metrics: uploads the queue answered busy without sending them (full, the wait ran out, or the server was draining). */
const turnedAway = counter(
  "safewindow_upload_queue_busy_total",
  "Uploads the app answered busy (503) without sending them to the consumer API: its queue was full, the wait ran out, or the server was draining.",
  [],
);

let queue: PQueue | undefined;

/** The bytes of the uploads waiting now (not yet started): at most `maxWaitingUploadBytes`. */
let waitingBytes = 0;

/** The aborts of the uploads not started yet: the drain aborts them all at once. */
const notStarted = new Set<AbortController>();
/** The drain signals listened to already (the server gives one to every request; a WeakSet keeps none alive). */
const watchedDrains = new WeakSet<AbortSignal>();

/**
 * Listens once to `draining`: when it aborts, every upload not started yet stops waiting. One
 * listener for the process, not one per upload (each would stay on the long-lived signal, or cost
 * Node memory per upload with AbortSignal.any, until the process ends).
 */
function watchDrain(draining: AbortSignal): void {
  if (watchedDrains.has(draining)) return;
  watchedDrains.add(draining);
  draining.addEventListener(
    "abort",
    () => {
      for (const wait of notStarted) wait.abort();
    },
    { once: true },
  );
}

/** The process's one queue, sized by UPLOADS_AT_ONCE on first use. */
function uploadQueue(): PQueue {
  queue ??= new PQueue({ concurrency: getConfig().UPLOADS_AT_ONCE });
  return queue;
}

/** The wait a busy answer gives, whole seconds: as long as an upload may wait in the queue, at least 1. */
export function busyRetryAfterSeconds(): number {
  return Math.max(1, Math.ceil(getConfig().UPLOAD_QUEUE_WAIT_MS / 1000));
}

/** The failure of an upload that did not get its turn: `busy`, status 503, with when to try again (in `messages`' language); counted. */
function queueBusy(messages: Messages): Result<never> {
  turnedAway.inc();
  const seconds = busyRetryAfterSeconds();
  return failure("busy", messages.uploadBusy(seconds), 503, { retryAfterSeconds: seconds });
}

/** A busy answer of the consumer API that gave no Retry-After waits as long as the queue's: the message says the same. */
function withRetryAfter<T>(result: Result<T>): Result<T> {
  return !result.ok && result.reason === "busy" && result.retryAfterSeconds === undefined ? { ...result, retryAfterSeconds: busyRetryAfterSeconds() } : result;
}

/**
 * Runs `upload` (one call to the consumer API that hands it a document to check) in its turn:
 * at once when fewer than UPLOADS_AT_ONCE run, else after the uploads before it, waiting at most
 * UPLOAD_QUEUE_WAIT_MS (ms). An upload that must wait but finds `maxWaitingUploads` waiting or
 * whose `bytes` would take the waiting files past `maxWaitingUploadBytes`, whose wait runs out,
 * or that is still waiting (or only arrives) once `draining` is aborted, is not sent: it
 * answers the `busy` failure (503, `retryAfterSeconds` = the wait bound in seconds,
 * messages.uploadBusy). Once started, `upload` runs to its own answer, drain or not; its `busy`
 * failure (the consumer API's 503) without a Retry-After gets the same wait.
 * @param draining aborted when the server's drain begins (the request context's `draining`, app/server/context.ts)
 * @param messages the catalogue of the request's language, for the busy failure's message
 * @param bytes what the upload holds in memory while it waits: its file's size (a result by link: its URL's length)
 * @returns upload's result, or the busy failure
 * @throws whatever `upload` throws (programming errors, the sign-in redirect)
 */
export async function inTurn<T>(upload: () => Promise<Result<T>>, draining: AbortSignal, messages: Messages, bytes: number): Promise<Result<T>> {
  const uploads = uploadQueue();
  if (draining.aborted) return queueBusy(messages);
  const queued = uploads.pending >= uploads.concurrency;
  if (queued && (uploads.size >= maxWaitingUploads || waitingBytes + bytes > maxWaitingUploadBytes)) return queueBusy(messages);
  watchDrain(draining);
  const waited = new AbortController();
  notStarted.add(waited);
  const timer = setTimeout(() => waited.abort(), getConfig().UPLOAD_QUEUE_WAIT_MS);
  let held = queued;
  /** The upload stops waiting (started, or dropped): its bytes and its place are given back, once. */
  const release = () => {
    if (!held) return;
    held = false;
    waitingBytes -= bytes;
    waitingGauge.dec();
  };
  if (queued) {
    waitingBytes += bytes;
    waitingGauge.inc();
  }
  let started = false;
  try {
    return await uploads.add(
      () => {
        started = true;
        notStarted.delete(waited);
        clearTimeout(timer);
        release();
        return upload().then(withRetryAfter);
      },
      // The timer or the drain ends the wait; p-queue drops a task whose signal aborts before it starts.
      { signal: waited.signal },
    );
  } catch (error) {
    if (!started) return queueBusy(messages);
    throw error;
  } finally {
    release();
    notStarted.delete(waited);
    clearTimeout(timer);
  }
}
