/**
 * The files of 'Download my data' that a person reads (docs/product/screens.md §2.5,
 * app/server/data-export.server.ts): the archive's README.txt and MISSING.txt. All ours. File and
 * folder names (safewindow-data.json, results/, page-1.jpg, original.pdf) are the same in every
 * language; each description is one whole paragraph that the README lays out beside its file's name.
 */
import { productName } from "./shell.ts";

export const dataExportReadmeTitle = `Your ${productName} data`;
/** `exportedAt`: the export's ISO 8601 time stamp (UTC); `account`: the e-mail address, or dataExportYourAccount. */
export const dataExportMadeOn = (exportedAt: string, account: string) => `Made on ${exportedAt} (UTC) for ${account}.`;
export const dataExportYourAccount = "your account";
export const dataExportJsonFile =
  "your account, your profile, every test result with the checks we made and your disputes with our responses, the people who follow you and whom you follow, and every check a venue made of your window with your check-ins and ratings, and, when you work for a venue, your business details and the venues you administer (JSON).";
export const dataExportResultsFolder = "one folder per test result: page-1.jpg, the image we show, and original.pdf, the PDF exactly as you uploaded it.";
export const dataExportMissing = "Some files could not be read while this archive was made; download it again later.";
/** `detail`: the upstream's own message, as it sent it. */
export const dataExportImageMissing = (detail: string) => `the image could not be read (${detail})`;
/** `detail`: the upstream's own message, as it sent it. */
export const dataExportPdfMissing = (detail: string) => `the PDF could not be read (${detail})`;
