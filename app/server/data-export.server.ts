/**
 * 'Download my data' (docs/product/screens.md §2.5, the person's own data): a zip of everything SafeWindow
 * keeps about the signed-in user, streamed as it is made (fflate), each result's files fetched only when the
 * download reaches them, so a slow connection holds at most one PDF (10 MiB) in memory.
 *
 * The archive:
 * - `README.txt`: what each file is;
 * - `safewindow-data.json`: the account (identity authority: user name, whether confirmed) and the consumer
 *   API's export (profile, results with checks and disputes, follow lists);
 * - `results/<n>-<collection date>-<lab>/page-1.jpg` and `original.pdf` for every result;
 * - `MISSING.txt`, only when a file could not be read during the download (the rest is complete).
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { RouterContextProvider } from "react-router";
import { requireUser } from "./auth.server";
import type { Messages } from "~/messages/catalogues";
import { messagesOf } from "./i18n.server";
import { businessApi } from "./upstream/business.server";
import { consumerApi, type DataExport } from "./upstream/consumer.server";
import { identityApi } from "./upstream/identity.server";
import { valueOrThrow } from "./upstream/result.server";

/** One file of the archive, made when the download reaches it; `{ missing }` leaves it out and says why in MISSING.txt. */
interface Entry {
  name: string;
  compress: boolean;
  bytes: () => Promise<Uint8Array | { missing: string }>;
}

/** `text` as a file name part: letters and digits, the rest as single dashes (at most 40 characters). */
function namePart(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "result";
}

/** The folder of the `index`-th result (1-based, zero-padded to sort). */
function resultFolder(index: number, result: { testDate: string; publicName: string }): string {
  return `results/${String(index).padStart(3, "0")}-${result.testDate.slice(0, 10)}-${namePart(result.publicName)}`;
}

/**
 * What the business API keeps about the person: their business user info, and the groups and locations
 * they administer (names only); null when it holds nothing of theirs (it refuses the token or lacks the
 * calls).
 * @throws the route error response when the business API cannot be asked (the export is not made half)
 */
async function businessData(context: Readonly<RouterContextProvider>) {
  const api = businessApi(context);
  const [info, locations, groups] = await Promise.all([api.userInfo({ optional: true }), api.locationAdministrator(undefined, { optional: true }), api.administratorGroups({ optional: true })]);
  const answers = [info, locations, groups];
  if (answers.some((answer) => !answer.ok && (answer.reason === "refused" || answer.reason === "notFound"))) return null;
  const [userInfo, administered, licensed] = [valueOrThrow(info), valueOrThrow(locations), valueOrThrow(groups)];
  return {
    userInfo: { firstName: userInfo.firstName, lastName: userInfo.lastName, mobileNumber: userInfo.mobileNumber },
    licensedAdministratorOf: licensed.map((group) => ({ hospitalityGroupId: group.hospitalityGroupId, name: group.name })),
    locationAdministratorOf: administered.locations.map((location) => ({ locationId: location.locationId, name: location.name, city: location.city, state: location.state })),
  };
}

/** The width of README.txt's descriptions, in characters: lines of at most 110 with the names' column. */
const descriptionWidth = 88;
/** The column of README.txt's file names, in characters (the longest name and two spaces). */
const nameWidth = 22;

/** `text` broken into lines of at most `width` characters, at spaces (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** One file's entry in README.txt: its name, and its description wrapped beside it. */
function readmeEntry(name: string, description: string): string[] {
  return wrap(description, descriptionWidth).map((line, i) => `${(i === 0 ? name : "").padEnd(nameWidth)}${line}`);
}

/**
 * README.txt in the language of `m` (app/messages/data-export.ts): what each file of the archive is, each
 * description wrapped beside its file's name in lines of at most 110 characters.
 * @param data the consumer API's export: only its e-mail address is named
 * @param exportedAt the export's ISO 8601 time stamp (UTC)
 */
export function dataExportReadme(m: Messages, data: Pick<DataExport, "email">, exportedAt: string): string {
  return [
    m.dataExportReadmeTitle,
    "",
    m.dataExportMadeOn(exportedAt, data.email ?? m.dataExportYourAccount),
    "",
    ...readmeEntry("safewindow-data.json", m.dataExportJsonFile),
    ...readmeEntry("results/", m.dataExportResultsFolder),
    "",
  ].join("\n");
}

/**
 * The download's response: `application/zip`, named `safewindow-data-<date>.zip`, never cached. The JSON
 * is read before anything is sent, so an upstream that is down answers the route's error page instead of a
 * broken file.
 * @throws the route error responses of valueOrThrow when the export or the account cannot be read.
 */
export async function dataExportResponse(context: Readonly<RouterContextProvider>): Promise<Response> {
  const user = requireUser(context);
  const api = consumerApi(context);
  const [exported, account, business] = await Promise.all([api.exportData(), identityApi(context).userInfo(user.accessToken), businessData(context)]);
  const data = valueOrThrow(exported);
  const { userName, emailConfirmed } = valueOrThrow(account);
  const json = { account: { userName, emailConfirmed }, ...data, business };
  // The files a person reads are worded in the request's language; the JSON's keys and the upstream's texts are not.
  const m = messagesOf(context);

  const entries: Entry[] = [
    { name: "README.txt", compress: true, bytes: async () => strToU8(dataExportReadme(m, data, data.exportedAt)) },
    { name: "safewindow-data.json", compress: true, bytes: async () => strToU8(`${JSON.stringify(json, null, 2)}\n`) },
  ];
  data.results.forEach((result, i) => {
    const folder = resultFolder(i + 1, result);
    entries.push({
      name: `${folder}/page-1.jpg`,
      compress: false,
      bytes: async () => {
        const image = await api.image(result.sF_TestResultId);
        return image.ok ? image.value : { missing: m.dataExportImageMissing(image.message) };
      },
    });
    if (result.originalPdf) {
      entries.push({
        name: `${folder}/original.pdf`,
        compress: false,
        bytes: async () => {
          const pdf = await api.pdf(result.sF_TestResultId);
          return pdf.ok ? pdf.value : { missing: m.dataExportPdfMissing(pdf.message) };
        },
      });
    }
  });

  const missing: string[] = [];
  let next = 0;
  let zip: Zip;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((err, chunk, final) => {
        if (err) return controller.error(err);
        controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    // One file per pull: the next file is fetched only when the reader wants more.
    async pull() {
      const entry = entries[next++];
      if (!entry) {
        if (missing.length > 0) add(zip, "MISSING.txt", true, strToU8(`${m.dataExportMissing}\n\n${missing.join("\n")}\n`));
        zip.end();
        return;
      }
      const bytes = await entry.bytes();
      if (bytes instanceof Uint8Array) add(zip, entry.name, entry.compress, bytes);
      else missing.push(`${entry.name}: ${bytes.missing}`);
    },
    cancel() {
      zip.terminate();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="safewindow-data-${data.exportedAt.slice(0, 10)}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Adds one whole file to `zip`: deflated (text) or stored as it is (JPEG and PDF are compressed already). */
function add(zip: Zip, name: string, compress: boolean, bytes: Uint8Array): void {
  const file = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
  zip.add(file);
  file.push(bytes, true);
}
