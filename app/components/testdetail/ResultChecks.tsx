/**
 * Test Detail's checks (docs/product/screens.md §2 Test Detail, docs/product/messages.md §8): the differences a
 * reviewer accepted, the errors list, or 'This test result was processed successfully.'. Its words
 * come from the testdetail loader's data, in the page's language.
 */

/** One checked field that did not match, named and explained in the reader's language. */
export interface Mismatch {
  sF_TestResultPropertyValueId: string;
  name: string;
  matchInfo: string;
}

/**
 * The result's checks under its thumbnail: `text.reviewed` (a valid result whose differences a reviewer
 * accepted on dispute) lists them as accepted; otherwise any difference or `loadError` is an error in
 * the list; none is the processed line.
 */
export function ResultChecks({
  mismatches,
  loadError,
  text,
}: {
  mismatches: Mismatch[];
  loadError: string | undefined;
  text: { reviewed: { accepted: string; differences: string } | null; errorsHeading: string; processed: string };
}) {
  return text.reviewed ? (
    // A valid result with differences: a reviewer accepted them on dispute (the 'Manual Review' row says who and when).
    <div className="result-reviewed">
      <p className="result-ok">{text.reviewed.accepted}</p>
      <p>{text.reviewed.differences}</p>
      <ul>
        {mismatches.map((p) => (
          <li key={p.sF_TestResultPropertyValueId}>
            <strong>{p.name}</strong>: {p.matchInfo}
          </li>
        ))}
      </ul>
    </div>
  ) : loadError || mismatches.length > 0 ? (
    <div className="result-errors" role="alert">
      <p>{text.errorsHeading}</p>
      <ul>
        {mismatches.map((p) => (
          <li key={p.sF_TestResultPropertyValueId}>
            <strong>{p.name}</strong>: {p.matchInfo}
          </li>
        ))}
        {loadError ? <li>{loadError}</li> : null}
      </ul>
    </div>
  ) : (
    <p className="result-ok">{text.processed}</p>
  );
}
