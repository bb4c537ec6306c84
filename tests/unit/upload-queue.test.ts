// The upload queue when the server's drain begins (docs/architecture/results-pipeline.md §5 "Uploads at
// once", docs/operating.md "Shutdown"): the uploads still waiting for their turn answer busy at once, the
// one already sent runs to its answer, and an upload that arrives during the drain is not sent. The
// queue's own module, with a configuration of one upload at a time and a wait far longer than the test.
import { beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import { parseConfig, setAppConfig } from "../../app/server/config.server";
import { success, type Result } from "../../app/server/upstream/result.server";
import { inTurn } from "../../app/server/upstream/upload-queue.server";
import { registry } from "../../lib/metrics";

/** The queue's wait, ms: 60 s, so only the drain can end a wait within the test. */
const waitMs = 60_000;

/** A series' value in this process's registry (0 before anything was counted). */
async function metric(name: string): Promise<number> {
  const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
  return values[0]?.value ?? 0;
}

/** An upload whose answer the test gives; `sent` once the queue started it. */
function heldUpload(answer: string) {
  let release = () => {};
  const upload = {
    sent: false,
    release: () => release(),
    run: () => {
      upload.sent = true;
      return new Promise<Result<string>>((resolve) => (release = () => resolve(success(answer))));
    },
  };
  return upload;
}

/** Settles within the current turns of the event loop, or says it has not. */
function settledSoon<T>(promise: Promise<T>): Promise<T | "pending"> {
  return Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), 50))]);
}

beforeAll(() => {
  setAppConfig(parseConfig({ UPLOADS_AT_ONCE: "1", UPLOAD_QUEUE_WAIT_MS: String(waitMs) }));
});

describe("the upload queue when the drain begins", () => {
  it("answers the waiting uploads busy at once, unsent and counted; the running one finishes", async () => {
    const drain = new AbortController();
    const busyBefore = await metric("safewindow_upload_queue_busy_total");
    const running = heldUpload("stored");
    const waiting = [heldUpload("never"), heldUpload("never")];
    const runningAnswer = inTurn(running.run, drain.signal, catalogues.en);
    const waitingAnswers = waiting.map((upload) => inTurn(upload.run, drain.signal, catalogues.en));
    await settledSoon(runningAnswer);
    expect(running.sent).toBe(true);
    expect(await metric("safewindow_upload_queue_length")).toBe(2);

    drain.abort();
    const busy = { ok: false, reason: "busy", status: 503, retryAfterSeconds: waitMs / 1000, message: messages.uploadBusy(waitMs / 1000) };
    expect(await Promise.all(waitingAnswers.map(settledSoon))).toEqual([busy, busy]);
    expect(waiting.map((upload) => upload.sent)).toEqual([false, false]);
    expect(await metric("safewindow_upload_queue_busy_total")).toBe(busyBefore + 2);
    expect(await metric("safewindow_upload_queue_length")).toBe(0);

    // The upload already at the consumer API is not cut short: it answers what the API answers.
    expect(await settledSoon(runningAnswer)).toBe("pending");
    running.release();
    expect(await runningAnswer).toEqual(success("stored"));
    // Nothing waited behind it: no upload of the drained queue is sent after all.
    await settledSoon(new Promise(() => {}));
    expect(waiting.map((upload) => upload.sent)).toEqual([false, false]);
  });

  it("answers an upload that arrives during the drain busy without sending it, even with the queue empty", async () => {
    const drain = new AbortController();
    drain.abort();
    const busyBefore = await metric("safewindow_upload_queue_busy_total");
    const late = heldUpload("never");
    const answer = await settledSoon(inTurn(late.run, drain.signal, catalogues.en));
    expect(answer).toMatchObject({ ok: false, reason: "busy", status: 503, retryAfterSeconds: waitMs / 1000 });
    expect(late.sent).toBe(false);
    expect(await metric("safewindow_upload_queue_busy_total")).toBe(busyBefore + 1);
  });

  it("without a drain, an upload waits for its turn and is sent", async () => {
    const drain = new AbortController();
    const first = heldUpload("first");
    const second = heldUpload("second");
    const answers = [inTurn(first.run, drain.signal, catalogues.en), inTurn(second.run, drain.signal, catalogues.en)];
    await settledSoon(answers[0]!);
    expect([first.sent, second.sent]).toEqual([true, false]);
    first.release();
    await answers[0];
    await settledSoon(answers[1]!);
    expect(second.sent).toBe(true);
    second.release();
    expect(await Promise.all(answers)).toEqual([success("first"), success("second")]);
  });
});
