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

function readme(data: DataExport, exportedAt: string): string {
  return [
    "Your SafeWindow data",
    "",
    `Made on ${exportedAt} (UTC) for ${data.email ?? "your account"}.`,
    "",
    "safewindow-data.json  your account, your profile, every test result with the checks we made and your disputes",
    "                      with our responses, the people who follow you and whom you follow, and every check a",
    "                      venue made of your window with your check-ins and ratings, and, when you work for a",
    "                      venue, your business details and the venues you administer (JSON).",
    "results/              one folder per test result: page-1.jpg, the image we show, and original.pdf, the PDF",
    "                      exactly as you uploaded it.",
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

  const entries: Entry[] = [
    { name: "README.txt", compress: true, bytes: async () => strToU8(readme(data, data.exportedAt)) },
    { name: "safewindow-data.json", compress: true, bytes: async () => strToU8(`${JSON.stringify(json, null, 2)}\n`) },
  ];
  data.results.forEach((result, i) => {
    const folder = resultFolder(i + 1, result);
    entries.push({
      name: `${folder}/page-1.jpg`,
      compress: false,
      bytes: async () => {
        const image = await api.image(result.sF_TestResultId);
        return image.ok ? image.value : { missing: `the image could not be read (${image.message})` };
      },
    });
    if (result.originalPdf) {
      entries.push({
        name: `${folder}/original.pdf`,
        compress: false,
        bytes: async () => {
          const pdf = await api.pdf(result.sF_TestResultId);
          return pdf.ok ? pdf.value : { missing: `the PDF could not be read (${pdf.message})` };
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
        if (missing.length > 0) add(zip, "MISSING.txt", true, strToU8(`Some files could not be read while this archive was made; download it again later.\n\n${missing.join("\n")}\n`));
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
