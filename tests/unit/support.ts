// What the unit tests of the results pipeline share: the UploadRejectedError a step throws
// (services/consumer/results/errors.ts; docs/architecture/results-pipeline.md §5), caught so the test can assert on its
// reason, status and consumerMessage.
import { expect } from "vitest";
import { UploadRejectedError } from "../../services/consumer/results/errors.ts";

/** `err` as an UploadRejectedError; asserts it is one. */
function asRejection(err: unknown): UploadRejectedError {
  expect(err).toBeInstanceOf(UploadRejectedError);
  return err as UploadRejectedError;
}

/** The UploadRejectedError `fn` throws, or undefined when it returns; asserts that whatever it throws is one. */
export function rejectionOf(fn: () => unknown): UploadRejectedError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return asRejection(err);
  }
}

/** The UploadRejectedError `p` rejects with, or undefined when it resolves; asserts that whatever it rejects with is one. */
export function rejectionOfAsync(p: Promise<unknown>): Promise<UploadRejectedError | undefined> {
  return p.then(() => undefined, asRejection);
}
