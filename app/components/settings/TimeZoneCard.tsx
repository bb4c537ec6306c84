/** My Settings' Time Zone card (docs/architecture/behaviour.md §4 "One clock"): the zone every time is shown in, where it came from, and the choice of another (a plain form post). */
import { Form, useNavigation } from "react-router";
import * as messages from "~/messages";
import type { Clock } from "~/server/timezone.server";

/** A zone as people read it: `America/Los_Angeles` → `America/Los Angeles`. */
const zoneLabel = (zone: string) => zone.replace(/_/g, " ");

export function TimeZoneCard({ clock, chosen, zones, error }: { clock: Clock; chosen: string | null; zones: readonly string[]; error?: string }) {
  const navigation = useNavigation();
  return (
    <section className="card" aria-labelledby="time-zone-heading">
      <h2 id="time-zone-heading">Time Zone</h2>
      <p id="time-zone-current">
        Times are shown in <strong>{zoneLabel(clock.timeZone)}</strong> ({messages.timeZoneSources[clock.source]}).
      </p>
      <Form method="post" aria-describedby="time-zone-current">
        <input type="hidden" name="intent" value="timeZone" />
        <div className="field">
          <label htmlFor="time-zone">Time zone</label>
          <select
            id="time-zone"
            name="timeZone"
            defaultValue={chosen ?? ""}
            aria-describedby={error ? "time-zone-hint time-zone-error" : "time-zone-hint"}
            aria-invalid={error ? true : undefined}
          >
            <option value="">{messages.timeZoneAutomatic}</option>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zoneLabel(zone)}
              </option>
            ))}
          </select>
          <p id="time-zone-hint" className="field-hint">
            {messages.timeZoneHint}
          </p>
          {error ? (
            <p id="time-zone-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button secondary" disabled={navigation.state === "submitting"}>
          Save
        </button>
      </Form>
    </section>
  );
}
