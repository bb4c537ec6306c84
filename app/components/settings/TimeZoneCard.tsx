/** My Settings' Time Zone card (docs/architecture/behaviour.md §4 "One clock"): the zone every time is shown in, where it came from, and the choice of another (a plain form post). */
import { Form, useNavigation } from "react-router";
import type { Clock } from "~/server/timezone.server";

/** A zone as people read it: `America/Los_Angeles` → `America/Los Angeles`. */
const zoneLabel = (zone: string) => zone.replace(/_/g, " ");

/** The card's words, in the page's language (from the settings loader's data); `sources` says where the zone came from. */
export interface TimeZoneText {
  title: string;
  shownIn: string;
  label: string;
  automatic: string;
  hint: string;
  sources: Readonly<Record<Clock["source"], string>>;
  save: string;
}

export function TimeZoneCard({ text, clock, chosen, zones, error }: { text: TimeZoneText; clock: Clock; chosen: string | null; zones: readonly string[]; error?: string }) {
  const navigation = useNavigation();
  return (
    <section className="card" aria-labelledby="time-zone-heading">
      <h2 id="time-zone-heading">{text.title}</h2>
      <p id="time-zone-current">
        {text.shownIn} <strong>{zoneLabel(clock.timeZone)}</strong> ({text.sources[clock.source]}).
      </p>
      <Form method="post" aria-describedby="time-zone-current">
        <input type="hidden" name="intent" value="timeZone" />
        <div className="field">
          <label htmlFor="time-zone">{text.label}</label>
          <select
            id="time-zone"
            name="timeZone"
            defaultValue={chosen ?? ""}
            aria-describedby={error ? "time-zone-hint time-zone-error" : "time-zone-hint"}
            aria-invalid={error ? true : undefined}
          >
            <option value="">{text.automatic}</option>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zoneLabel(zone)}
              </option>
            ))}
          </select>
          <p id="time-zone-hint" className="field-hint">
            {text.hint}
          </p>
          {error ? (
            <p id="time-zone-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button secondary" disabled={navigation.state === "submitting"}>
          {text.save}
        </button>
      </Form>
    </section>
  );
}
