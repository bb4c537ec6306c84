// The upload queue's bounds, and the queue when the server's drain begins (docs/architecture/results-pipeline.md §5 "Uploads at
// once", docs/operating.md "Shutdown"): the uploads still waiting for their turn answer busy at once, the
// one already sent runs to its answer, and an upload that arrives during the drain is not sent. The
// queue's own module, with a configuration of one upload at a time and a wait far longer than the test.
import { beforeAll, describe, expect, it } from "vitest";
import * as messages from "../../app/messages";
import { catalogues } from "../../app/messages/catalogues";
import { parseConfig, setAppConfig } from "../../app/server/config.server";
import { success, type Result } from "../../app/server/upstream/result.server";
import { inTurn, maxWaitingUploadBytes, maxWaitingUploads } from "../../app/server/upstream/upload-queue.server";
import { registry } from "../../lib/metrics";

/** An ordinary lab report's size, bytes. */
const reportBytes = 150_000;

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
    const runningAnswer = inTurn(running.run, drain.signal, catalogues.en, reportBytes);
    const waitingAnswers = waiting.map((upload) => inTurn(upload.run, drain.signal, catalogues.en, reportBytes));
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
    const answer = await settledSoon(inTurn(late.run, drain.signal, catalogues.en, reportBytes));
    expect(answer).toMatchObject({ ok: false, reason: "busy", status: 503, retryAfterSeconds: waitMs / 1000 });
    expect(late.sent).toBe(false);
    expect(await metric("safewindow_upload_queue_busy_total")).toBe(busyBefore + 1);
  });

  it("without a drain, an upload waits for its turn and is sent", async () => {
    const drain = new AbortController();
    const first = heldUpload("first");
    const second = heldUpload("second");
    const answers = [inTurn(first.run, drain.signal, catalogues.en, reportBytes), inTurn(second.run, drain.signal, catalogues.en, reportBytes)];
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

describe("how many uploads may wait", () => {
  /** Each of `uploads` is sent in its turn, one after the other, and answered; `answers` are their inTurn promises. */
  async function answerAll(uploads: ReturnType<typeof heldUpload>[], answers: Promise<unknown>[]) {
    for (const [index, upload] of uploads.entries()) {
      // p-queue starts the next task a few promise turns after the last one settles.
      for (let turn = 0; turn < 20 && !upload.sent; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(upload.sent, `upload ${index}`).toBe(true);
      // One at a time (UPLOADS_AT_ONCE 1): the next is not sent before this one answers.
      expect(uploads[index + 1]?.sent ?? false, `upload ${index + 1}`).toBe(false);
      upload.release();
      await answers[index];
    }
  }

  it("a burst of ordinary reports past the old count of 64 all wait, and all are sent in order", async () => {
    const drain = new AbortController();
    const busyBefore = await metric("safewindow_upload_queue_busy_total");
    const uploads = Array.from({ length: 120 }, (_, index) => heldUpload(`report ${index}`));
    const answers = uploads.map((upload) => inTurn(upload.run, drain.signal, catalogues.en, reportBytes));
    await settledSoon(answers[0]!);
    expect(await metric("safewindow_upload_queue_length")).toBe(119);
    await answerAll(uploads, answers);
    expect(await Promise.all(answers)).toEqual(uploads.map((_, index) => success(`report ${index}`)));
    expect(await metric("safewindow_upload_queue_busy_total")).toBe(busyBefore);
    expect(await metric("safewindow_upload_queue_length")).toBe(0);
  });

  it("files that would pass the waiting bytes are busy at once and unsent; the room comes back when the waiting ones start", async () => {
    const drain = new AbortController();
    const running = heldUpload("running");
    const runningAnswer = inTurn(running.run, drain.signal, catalogues.en, reportBytes);
    const tenMegabytes = 10 * 1024 * 1024;
    const fitting = Math.floor(maxWaitingUploadBytes / tenMegabytes);
    const large = Array.from({ length: fitting }, (_, index) => heldUpload(`large ${index}`));
    const largeAnswers = large.map((upload) => inTurn(upload.run, drain.signal, catalogues.en, tenMegabytes));
    const busyBefore = await metric("safewindow_upload_queue_busy_total");
    const tooMuch = heldUpload("never");
    const refused = await settledSoon(inTurn(tooMuch.run, drain.signal, catalogues.en, tenMegabytes));
    expect(refused).toMatchObject({ ok: false, reason: "busy", status: 503, retryAfterSeconds: waitMs / 1000, message: messages.uploadBusy(waitMs / 1000) });
    expect(tooMuch.sent).toBe(false);
    expect(await metric("safewindow_upload_queue_busy_total")).toBe(busyBefore + 1);
    // A small report still fits beside them.
    const small = heldUpload("small");
    const smallAnswer = inTurn(small.run, drain.signal, catalogues.en, reportBytes);
    expect(await settledSoon(smallAnswer)).toBe("pending");
    expect(await metric("safewindow_upload_queue_length")).toBe(fitting + 1);

    await answerAll([running, ...large, small], [runningAnswer, ...largeAnswers, smallAnswer]);
    // All started: the bytes are given back, and a large file waits again.
    const again = heldUpload("again");
    const blocker = heldUpload("blocker");
    const answers = [inTurn(blocker.run, drain.signal, catalogues.en, reportBytes), inTurn(again.run, drain.signal, catalogues.en, tenMegabytes)];
    expect(await settledSoon(answers[1]!)).toBe("pending");
    await answerAll([blocker, again], answers);
    expect(await answers[1]).toEqual(success("again"));
  });

  it("past the count, even small uploads are busy; the first upload is sent at once whatever its size", async () => {
    const drain = new AbortController();
    const huge = heldUpload("huge");
    const hugeAnswer = inTurn(huge.run, drain.signal, catalogues.en, 2 * maxWaitingUploadBytes);
    await settledSoon(hugeAnswer);
    expect(huge.sent).toBe(true);
    const waiting = Array.from({ length: maxWaitingUploads }, (_, index) => heldUpload(`small ${index}`));
    const waitingAnswers = waiting.map((upload) => inTurn(upload.run, drain.signal, catalogues.en, 1));
    const extra = heldUpload("never");
    expect(await settledSoon(inTurn(extra.run, drain.signal, catalogues.en, 1))).toMatchObject({ ok: false, reason: "busy", status: 503 });
    expect(extra.sent).toBe(false);
    await answerAll([huge, ...waiting], [hugeAnswer, ...waitingAnswers]);
  });

  it("a wait that runs out gives its bytes back", async () => {
    const drain = new AbortController();
    const running = heldUpload("running");
    const runningAnswer = inTurn(running.run, drain.signal, catalogues.en, reportBytes);
    const timedOut = heldUpload("never");
    // This one upload waits 30 ms at most; the queue's wait is read when an upload arrives.
    setAppConfig(parseConfig({ UPLOADS_AT_ONCE: "1", UPLOAD_QUEUE_WAIT_MS: "30" }));
    const timedOutAnswer = inTurn(timedOut.run, drain.signal, catalogues.en, maxWaitingUploadBytes);
    setAppConfig(parseConfig({ UPLOADS_AT_ONCE: "1", UPLOAD_QUEUE_WAIT_MS: String(waitMs) }));
    expect(await timedOutAnswer).toMatchObject({ ok: false, reason: "busy" });
    expect(timedOut.sent).toBe(false);
    expect(await metric("safewindow_upload_queue_length")).toBe(0);
    // The whole budget is free again: a file of that size waits.
    const next = heldUpload("next");
    const nextAnswer = inTurn(next.run, drain.signal, catalogues.en, maxWaitingUploadBytes);
    expect(await settledSoon(nextAnswer)).toBe("pending");
    await answerAll([running, next], [runningAnswer, nextAnswer]);
    expect(await nextAnswer).toEqual(success("next"));
  });
});
