// app/routes/locations.tsx: 'Locations' (docs/product/data.md §6 screen `Locations`; docs/venues.md "Finding
// venues"): venues near a ZIP code, or near the browser's position when the person asks for it with
// JavaScript on; a choice of distance; each venue with its address, phone and distance. The search is
// a GET form (?zip=&miles=, or ?latitude=&longitude=&miles=), so it works without JavaScript and the
// results have a URL. The ZIP box starts with the profile's postal code.
import { data, Form, useLoaderData, useNavigate } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/locations";
import { formatPhone } from "~/phone";
import { messagesOf } from "~/server/i18n.server";
import { zipSearchSchema } from "~/forms/search";
import { htmlConstraints } from "~/server/form-constraints.server";
import { consumerApi } from "~/server/upstream/consumer.server";
import { valueOrThrow } from "~/server/upstream/result.server";
import { useHydrated } from "~/hooks/useHydrated";

// The page's words come in its loader data, in the request's language (docs/architecture/behaviour.md §4 "Language").
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.pageTitle }] : []);

/** The distances offered, in miles; the first search uses the default. */
export const radiusChoices = [5, 10, 25, 50, 100] as const;
const defaultRadius = 25;

/** A coordinate from the query, or undefined when it is not a number in range. */
function coordinate(text: string | null, limit: number): number | undefined {
  if (text === null || !/^-?\d{1,3}(\.\d{1,10})?$/.test(text)) return undefined;
  const value = Number(text);
  return Math.abs(value) <= limit ? value : undefined;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const asked = Number(params.get("miles"));
  const miles = (radiusChoices as readonly number[]).includes(asked) ? asked : defaultRadius;
  const api = consumerApi(context);
  const zip = (params.get("zip") ?? "").trim();
  // The ZIP box's HTML constraints, from the schema the ZIP code is checked with.
  const constraint = htmlConstraints(zipSearchSchema(messagesOf(context))).zip;
  const latitude = coordinate(params.get("latitude"), 90);
  const longitude = coordinate(params.get("longitude"), 180);
  const near = latitude !== undefined && longitude !== undefined && !zip ? { latitude, longitude } : undefined;
  const m = messagesOf(context);
  const text = {
    title: m.locationsTitle,
    pageTitle: m.locationsPageTitle,
    zip: m.zipCodeLabel,
    within: m.withinLabel,
    miles: radiusChoices.map((choice) => ({ choice, label: m.milesChoice(choice) })),
    search: m.locationSearchButton,
    findingYou: m.findingYou,
    nearMe: m.nearMe,
    positionUnavailable: m.positionUnavailable,
    found: m.locationsFoundLabel,
  };
  const none = { summary: undefined, text };
  if (!zip && !near) {
    // Before a search: the ZIP box starts with the profile's postal code.
    const profile = valueOrThrow(await api.getProfile());
    return { zip: profile?.postalCode ?? "", constraint, miles, searched: false as const, nearMe: false, problem: undefined, locations: [], ...none };
  }
  const checked = zip ? zipSearchSchema(m).safeParse({ zip }) : undefined;
  if (checked && !checked.success) return data({ zip: zip.slice(0, 10), constraint, miles, searched: false as const, nearMe: false, problem: checked.error.issues[0]!.message, locations: [], ...none }, { status: 400 });
  const found = await api.searchLocations(near ?? { zip }, miles);
  if (!found.ok && found.reason === "refused") return data({ zip, constraint, miles, searched: false as const, nearMe: false, problem: found.message, locations: [], ...none }, { status: 400 });
  const locations = valueOrThrow(found).map((location) => ({ ...location, distance: m.distanceMiles(location.distanceMiles.toFixed(1)) }));
  const summary =
    locations.length === 0 ? m.noLocationsFound : near ? m.locationsNearYou(locations.length, miles) : m.locationsWithin(locations.length, miles, zip);
  return { zip, constraint, miles, searched: true as const, nearMe: near !== undefined, problem: undefined, locations, summary, text };
}

export default function Locations() {
  const { zip, constraint, miles, searched, nearMe, problem, locations, summary, text } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [radius, setRadius] = useState<number>(miles);
  const [locating, setLocating] = useState<"idle" | "asking" | "failed">("idle");

  /** With the person's consent (the browser asks), search near where they are. */
  function searchNearMe() {
    if (!("geolocation" in navigator)) {
      setLocating("failed");
      return;
    }
    setLocating("asking");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating("idle");
        // Two decimals (about a kilometre) are enough to find venues miles away, and say less about where the person is.
        const { latitude, longitude } = position.coords;
        void navigate(`/locations?latitude=${latitude.toFixed(2)}&longitude=${longitude.toFixed(2)}&miles=${radius}`);
      },
      () => setLocating("failed"),
      { timeout: 15_000, maximumAge: 300_000 },
    );
  }

  return (
    <section>
      <h1>{text.title}</h1>
      <Form method="get" role="search" className="search-form location-search">
        <label htmlFor="zip">{text.zip}</label>{" "}
        <input
          id="zip"
          name="zip"
          inputMode="numeric"
          autoComplete="postal-code"
          pattern="[0-9]{5}"
          maxLength={constraint?.maxLength}
          defaultValue={nearMe ? "" : zip}
          aria-describedby="location-problem"
          aria-invalid={problem ? true : undefined}
        />{" "}
        <label htmlFor="miles">{text.within}</label>{" "}
        <select id="miles" name="miles" value={radius} onChange={(event) => setRadius(Number(event.target.value))}>
          {text.miles.map(({ choice, label }) => (
            <option key={choice} value={choice}>
              {label}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button">
          {text.search}
        </button>
        {hydrated ? (
          <button type="button" className="button secondary" onClick={searchNearMe} disabled={locating === "asking"}>
            {locating === "asking" ? text.findingYou : text.nearMe}
          </button>
        ) : null}
      </Form>
      <div id="location-problem" className="field-error" aria-live="polite">
        {problem ? <p>{problem}</p> : null}
        {locating === "failed" ? <p>{text.positionUnavailable}</p> : null}
      </div>
      {searched ? (
        <p className="search-summary" role="status">
          {summary}
        </p>
      ) : null}
      {locations.length > 0 ? (
        <ul className="venue-list" aria-label={text.found}>
          {locations.map((location) => (
            <li key={location.locationId} className="venue">
              <h2 className="venue-name">{location.name}</h2>
              <p className="venue-distance">{location.distance}</p>
              <p className="venue-address">
                {location.address}, {location.city}, {location.state} {location.postalCode}
              </p>
              <p>
                <a href={`tel:+1${location.phone}`}>{formatPhone(location.phone)}</a>
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
