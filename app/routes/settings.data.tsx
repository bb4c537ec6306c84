// app/routes/settings.data.tsx: 'Download my data' (docs/product/screens.md §2.5): a zip of everything
// SafeWindow keeps about the signed-in user (app/server/data-export.server.ts), from a plain link on My
// Settings, so it works without JavaScript. A resource route: no page, only the file.
import type { Route } from "./+types/settings.data";
import { dataExportResponse } from "~/server/data-export.server";

export function loader({ context }: Route.LoaderArgs) {
  return dataExportResponse(context);
}
