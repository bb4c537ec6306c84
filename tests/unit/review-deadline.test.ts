// The reviewers' clock (app/server/reviews.server.ts): how long a dispute has been open against the
// 3-hour promise users are given (docs/product/data.md §6, the dispute reviewers).
import { describe, expect, it } from "vitest";
import { reviewDeadlineState, reviewDuration, valueOr404ForReviewers } from "../../app/server/reviews.server";
import { failure } from "../../app/server/upstream/result.server";

const minute = 60_000;
const disputedAt = "2026-11-25T12:00:00.000Z";
const at = (minutes: number) => Date.parse(disputedAt) + minutes * minute;

describe("reviewDuration", () => {
  it("writes days, hours and minutes, leaving out zeros, and 0 min under a minute", () => {
    expect(reviewDuration(0)).toBe("0 min");
    expect(reviewDuration(59_999)).toBe("0 min");
    expect(reviewDuration(5 * minute)).toBe("5 min");
    expect(reviewDuration(125 * minute)).toBe("2 hr, 5 min");
    expect(reviewDuration(180 * minute)).toBe("3 hr");
    expect(reviewDuration((24 * 60 + 61) * minute)).toBe("1 day, 1 hr, 1 min");
    expect(reviewDuration(-5 * minute)).toBe("0 min");
  });
});

describe("reviewDeadlineState", () => {
  it("counts down to 3 hours after the dispute, then counts the delay", () => {
    expect(reviewDeadlineState(disputedAt, at(50))).toEqual({ openFor: "50 min", overdue: false, left: "2 hr, 10 min" });
    expect(reviewDeadlineState(disputedAt, at(180))).toEqual({ openFor: "3 hr", overdue: false, left: "0 min" });
    expect(reviewDeadlineState(disputedAt, at(221))).toEqual({ openFor: "3 hr, 41 min", overdue: true, left: "41 min" });
  });
});

describe("valueOr404ForReviewers", () => {
  it("answers 404 when the upstream refuses the caller or lacks the call, and passes values through", () => {
    expect(valueOr404ForReviewers({ ok: true, value: [1] })).toEqual([1]);
    for (const reason of ["refused", "notFound"] as const) {
      try {
        valueOr404ForReviewers(failure(reason, "no", reason === "refused" ? 403 : 404));
        expect.unreachable();
      } catch (thrown) {
        expect(thrown).toMatchObject({ init: { status: 404 } });
      }
    }
    expect(() => valueOr404ForReviewers(failure("unavailable", "down", 0))).toThrow();
  });
});
