// Forged originals, without HTTP (services/consumer/README.md "The pipeline", step 1;
// docs/decisions/0010-forged-originals.md), written as the attack: a genuine lab report with JavaScript, an
// action, a Launch action or an embedded file added, a ZIP appended, wrapped around it or put
// in front of it, passes originality, issuer recognition and extraction as it did before; intake
// now refuses each with its own reason and consumerMessage. What a forger would hide behind
// (object streams with or without /Type, predictors, filter chains, `#xx`-escaped names,
// comments inside object headers, indirect names) is read; what cannot be read is refused. The
// genuine reports of all three labs carry nothing, and the same report in other bytes has the
// same identity key.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { rejectionMessages } from "../../services/consumer/results/errors.ts";
import { extractReport } from "../../services/consumer/results/extract.ts";
import { checkActiveContent, checkPdfBytes } from "../../services/consumer/results/intake.ts";
import { recogniseIssuer } from "../../services/consumer/results/issuer.ts";
import { checkOriginality } from "../../services/consumer/results/originality.ts";
import { ACTIVE_CONTENT_ORDER, hasDataAfterEnd, headerPlacement, scanObjects } from "../../services/consumer/results/structure.ts";
import type { ActiveContent } from "../../services/consumer/results/structure.ts";
import { documentActiveContent } from "../../services/consumer/results/worker.ts";
import { reportIdentityKey } from "../../services/consumer/schema/0004_report_identity.ts";
import {
  additionalActionPdf,
  behindOtherHeaderPdf,
  byteAppended,
  embeddedFilePdf,
  embeddedFontAvailable,
  fileAttachmentAnnotationPdf,
  handWrittenPdf,
  labPdf,
  launchActionPdf,
  notPdf,
  onePageObjects,
  openActionJavaScriptPdf,
  ownerPasswordOnlyPdf,
  resavedPdf,
  storedZip,
  truncatedPdf,
  zipAppendedPdf,
  zipWrappedPdf,
} from "../fixtures/index.ts";
import type { LabId, ReportOptions, SaveAs, Variation } from "../fixtures/index.ts";
import { parseAnswer, parseFixture } from "../fixtures/parse.ts";
import { rejectionOf } from "./support.ts";

const person = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10" };
const o: ReportOptions = { ...person, collectedAt: new Date("2026-11-20T16:15:00Z") };
const LABS: LabId[] = ["harborview", "meridian", "cascade"];
const ENCODE = new TextEncoder();

const require = createRequire(import.meta.url);
const pdfjs: typeof import("pdfjs-dist/legacy/build/pdf.mjs") = await import(require.resolve("pdfjs-dist/legacy/build/pdf.mjs"));

/** What pdf.js alone reports for `bytes` (worker.ts documentActiveContent). */
async function seenByPdfJs(bytes: Uint8Array): Promise<ActiveContent[]> {
  const loading = pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    return await documentActiveContent(await loading.promise);
  } finally {
    await loading.destroy();
  }
}

/** The worker's (both layers') answer: the active content, or the reason it refused the file. */
async function seenByWorker(bytes: Uint8Array): Promise<ActiveContent[] | string> {
  const answer = await parseAnswer(bytes);
  return answer.ok ? answer.pdf.activeContent : answer.reason;
}

function reasonAndMessage(fn: () => unknown): { reason: string; consumerMessage: string } | undefined {
  const err = rejectionOf(fn);
  return err && { reason: err.reason, consumerMessage: err.consumerMessage };
}

describe("the bytes: a PDF and only a PDF", () => {
  it("the %PDF- header comes first; a ZIP, or another format's header in front, is refused with its own message", async () => {
    const report = await labPdf("harborview", o);
    expect(headerPlacement(report)).toBe("pdf");
    expect(headerPlacement(new Uint8Array([0xef, 0xbb, 0xbf, 0x20, 0x0a, ...report]))).toBe("pdf");
    const zipWrapped = await zipWrappedPdf(o);
    const behind = await behindOtherHeaderPdf(o);
    expect(headerPlacement(zipWrapped)).toBe("archive");
    // A ZIP of anything: the advice (open it, upload the PDF inside) is the same.
    expect(headerPlacement(storedZip([{ name: "a.txt", data: ENCODE.encode("hello") }]))).toBe("archive");
    expect(headerPlacement(behind)).toBe("wrapped");
    expect(headerPlacement(new Uint8Array([0x00, ...report]))).toBe("wrapped");
    expect(headerPlacement(notPdf())).toBe("not_pdf");
    expect(headerPlacement(new Uint8Array(0))).toBe("empty");

    expect(() => checkPdfBytes(report)).not.toThrow();
    expect(reasonAndMessage(() => checkPdfBytes(zipWrapped))).toEqual({ reason: "archive", consumerMessage: rejectionMessages.archive() });
    expect(reasonAndMessage(() => checkPdfBytes(behind))).toEqual({ reason: "wrapped", consumerMessage: rejectionMessages.wrapped() });
    expect(reasonAndMessage(() => checkPdfBytes(notPdf()))).toEqual({ reason: "not_pdf", consumerMessage: rejectionMessages.not_pdf() });
    expect(reasonAndMessage(() => checkPdfBytes(new Uint8Array(0)))).toEqual({ reason: "not_pdf", consumerMessage: rejectionMessages.empty() });
  });

  it("nothing but white space after the last %%EOF, and that %%EOF closes the startxref", async () => {
    const report = await labPdf("cascade", o);
    expect(hasDataAfterEnd(report)).toBe(false);
    expect(hasDataAfterEnd(byteAppended(report, "\n"))).toBe(false);
    expect(hasDataAfterEnd(new Uint8Array([...report, ...ENCODE.encode("\r\n \t\f")]))).toBe(false);
    expect(hasDataAfterEnd(byteAppended(report, "x"))).toBe(true);
    expect(hasDataAfterEnd(byteAppended(report, "\0"))).toBe(true);
    expect(hasDataAfterEnd(await zipAppendedPdf(o))).toBe(true);
    // The data slipped between the cross-reference offset and a %%EOF moved behind it.
    const text = Buffer.from(report).toString("latin1");
    const moved = `${text.slice(0, text.lastIndexOf("%%EOF"))}PK\x05\x06${"\0".repeat(18)}%%EOF\n`;
    expect(hasDataAfterEnd(Buffer.from(moved, "latin1"))).toBe(true);
    // No %%EOF at all: cut short, which the worker answers "corrupt".
    expect(hasDataAfterEnd(truncatedPdf(report))).toBe(false);
    expect(reasonAndMessage(() => checkPdfBytes(byteAppended(report, "x")))).toEqual({ reason: "appended", consumerMessage: rejectionMessages.appended() });
  });
});

describe("the objects: genuine reports carry no active content", () => {
  const variations: Variation[] = [
    {},
    { extraText: true, secondPage: true },
    { shuffle: true, split: "chars", kerning: true },
    ...(embeddedFontAvailable() ? [{ font: "embedded" as const, split: "words" as const }] : []),
  ];
  it("each lab's report, in every variation, and saved again with object streams", async () => {
    for (const lab of LABS) {
      for (const variation of variations) {
        const report = await labPdf(lab, { ...o, variation });
        const resaved = await resavedPdf(report);
        for (const bytes of [report, resaved]) {
          expect(scanObjects(bytes), `${lab} ${JSON.stringify(variation)}`).toEqual({ found: [], unreadableObjectStreams: 0 });
          expect(await seenByWorker(bytes), lab).toEqual([]);
          expect(() => checkPdfBytes(bytes)).not.toThrow();
        }
      }
    }
  });
});

/** Each forged addition, the kinds the object scan finds, and what pdf.js alone reports. */
const FORGERIES: { name: string; build: (saveAs: SaveAs) => Promise<Uint8Array>; kinds: ActiveContent[]; pdfjs: ActiveContent[] }[] = [
  // pdf.js reports the script; an OpenAction that is a script is also an action.
  { name: "OpenAction JavaScript", build: (s) => openActionJavaScriptPdf(o, "harborview", s), kinds: ["javascript", "actions"], pdfjs: ["javascript"] },
  // pdf.js does not report non-script additional actions: only the object scan sees them.
  { name: "page /AA URI action", build: (s) => additionalActionPdf(o, "meridian", s), kinds: ["actions"], pdfjs: [] },
  { name: "Launch link", build: (s) => launchActionPdf(o, "cascade", s), kinds: ["launch"], pdfjs: ["launch"] },
  { name: "/EmbeddedFiles", build: (s) => embeddedFilePdf(o, "harborview", s), kinds: ["embedded_file"], pdfjs: ["embedded_file"] },
  { name: "FileAttachment annotation", build: (s) => fileAttachmentAnnotationPdf(o, "meridian", s), kinds: ["embedded_file"], pdfjs: ["embedded_file"] },
];

describe("the objects: each forged addition is found, in a classic file and inside object streams", () => {
  for (const f of FORGERIES) {
    it(f.name, async () => {
      for (const saveAs of ["classic", "object-streams"] as const) {
        const bytes = await f.build(saveAs);
        if (saveAs === "object-streams") expect(Buffer.from(bytes).includes("/ObjStm")).toBe(true);
        expect(scanObjects(bytes), saveAs).toEqual({ found: f.kinds, unreadableObjectStreams: 0 });
        expect(await seenByPdfJs(bytes), saveAs).toEqual(f.pdfjs);
        expect(await seenByWorker(bytes), saveAs).toEqual(f.kinds);
      }
    });
  }
});

describe("the attack: a forged report passes every other check, and intake now refuses it", () => {
  const cases: { name: string; build: () => Promise<Uint8Array>; reason: string; consumerMessage: string }[] = [
    ...FORGERIES.map((f) => ({
      name: f.name,
      build: () => f.build("object-streams"),
      reason: f.kinds[0]!,
      consumerMessage: rejectionMessages[f.kinds[0]!](),
    })),
    { name: "ZIP appended", build: () => zipAppendedPdf(o), reason: "appended", consumerMessage: rejectionMessages.appended() },
    { name: "ZIP wrapped", build: () => zipWrappedPdf(o), reason: "archive", consumerMessage: rejectionMessages.archive() },
    { name: "behind a PNG header", build: () => behindOtherHeaderPdf(o), reason: "wrapped", consumerMessage: rejectionMessages.wrapped() },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const bytes = await c.build();
      // Every check but intake's would store it as a valid original: pdf.js reads it, originality,
      // the issuer and extraction accept it, and it names the person.
      const pdf = await parseFixture(bytes);
      expect(() => checkOriginality(pdf)).not.toThrow();
      const lab = recogniseIssuer(pdf);
      expect(extractReport(pdf.page1.items, lab)).toMatchObject({ lastName: expect.stringMatching(/^lovelace$/i), dob: person.dob });
      // Now: refused by the bytes, or by what the worker read.
      const refusal = reasonAndMessage(() => checkPdfBytes(bytes)) ?? reasonAndMessage(() => checkActiveContent(pdf));
      expect(refusal).toEqual({ reason: c.reason, consumerMessage: c.consumerMessage });
    });
  }

  it("one refusal per file, the most specific kind first; each kind its own message", () => {
    expect(ACTIVE_CONTENT_ORDER).toEqual(["launch", "javascript", "embedded_file", "actions"]);
    expect(reasonAndMessage(() => checkActiveContent({ activeContent: ["javascript", "actions"] }))?.reason).toBe("javascript");
    expect(reasonAndMessage(() => checkActiveContent({ activeContent: ["launch", "actions"] }))?.reason).toBe("launch");
    expect(() => checkActiveContent({ activeContent: [] })).not.toThrow();
    const messages = ACTIVE_CONTENT_ORDER.map((k) => rejectionMessages[k]());
    const others = [rejectionMessages.archive(), rejectionMessages.wrapped(), rejectionMessages.appended(), rejectionMessages.changed(), rejectionMessages.not_pdf()];
    expect(new Set([...messages, ...others]).size).toBe(messages.length + others.length);
    for (const m of [...messages, ...others]) expect(m).toMatch(/^This .*\.$/);
  });
});

describe("the objects: what a forger would hide behind", () => {
  const js = "<< /S /JavaScript /JS (app.alert\\(1\\)) >>";
  const openJs = onePageObjects({ catalog: `/OpenAction ${js}` });
  const cases: { name: string; bytes: Uint8Array; kinds: ActiveContent[] }[] = [
    { name: "names spelt with #xx escapes", bytes: handWrittenPdf(onePageObjects({ catalog: "/OpenAction << /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>" })), kinds: ["javascript", "actions"] },
    { name: "the action type an indirect name", bytes: handWrittenPdf(onePageObjects({ catalog: "/OpenAction 6 0 R", more: ["<< /S 7 0 R /JS (x) >>", "/JavaScript"] })), kinds: ["javascript", "actions"] },
    { name: "a comment and NUL inside the object headers", bytes: handWrittenPdf(openJs, { header: (n) => `${n} %0 obj\n0\0obj` }), kinds: ["javascript", "actions"] },
    { name: "a document-level script in the /Names tree", bytes: handWrittenPdf(onePageObjects({ catalog: `/Names << /JavaScript << /Names [(init) ${js}] >> >>` })), kinds: ["javascript"] },
    { name: "the catalog in an object stream", bytes: handWrittenPdf(openJs, { objectStream: { packed: [1, 2] } }), kinds: ["javascript", "actions"] },
    { name: "an object stream without /Type", bytes: handWrittenPdf(openJs, { objectStream: { packed: [1, 2], typed: false } }), kinds: ["javascript", "actions"] },
    { name: "an object stream with a PNG predictor", bytes: handWrittenPdf(openJs, { objectStream: { packed: [1, 2], encoding: "flate-png" } }), kinds: ["javascript", "actions"] },
    { name: "an object stream with a filter chain", bytes: handWrittenPdf(openJs, { objectStream: { packed: [1, 2], encoding: "hex-flate" } }), kinds: ["javascript", "actions"] },
    { name: "an unfiltered object stream", bytes: handWrittenPdf(onePageObjects({ page: "/AA << /O << /S /URI /URI (https://x.example) >> >>" }), { objectStream: { packed: [3], encoding: "none" } }), kinds: ["actions"] },
    { name: "a Launch OpenAction", bytes: handWrittenPdf(onePageObjects({ catalog: "/OpenAction << /S /Launch /F (calc.exe) >>" })), kinds: ["launch", "actions"] },
    { name: "a GoToR link (opens another file)", bytes: handWrittenPdf(onePageObjects({ page: "/Annots [6 0 R]", more: ["<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A << /S /GoToR /F (other.pdf) /D [0 /Fit] >> >>"] })), kinds: ["launch"] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      // A real file: pdf.js opens it.
      expect(typeof (await seenByWorker(c.bytes))).toBe("object");
      expect(await seenByWorker(c.bytes)).toEqual(c.kinds);
    });
  }

  it("an object stream this scan cannot decode (LZW) is refused as too complex, unless pdf.js names what it holds", async () => {
    const hidden = handWrittenPdf(openJs, { objectStream: { packed: [1, 2], encoding: "lzw" } });
    expect(scanObjects(hidden)).toEqual({ found: [], unreadableObjectStreams: 1 });
    // pdf.js reads LZW: the script is still found.
    expect(await seenByPdfJs(hidden)).toEqual(["javascript"]);
    expect(await seenByWorker(hidden)).toEqual(["javascript"]);
    // A URI OpenAction pdf.js does not report: nothing to name, so too complex to check.
    const quiet = handWrittenPdf(onePageObjects({ catalog: "/OpenAction << /S /URI /URI (https://x.example) >>" }), { objectStream: { packed: [1, 2], encoding: "lzw" } });
    expect(await seenByPdfJs(quiet)).toEqual([]);
    expect(await seenByWorker(quiet)).toBe("too_complex");
    // Over the decoding budget: the same.
    const big = handWrittenPdf(openJs, { objectStream: { packed: [1, 2] } });
    expect(scanObjects(big, 16)).toEqual({ found: [], unreadableObjectStreams: 1 });
  });

  it("an OpenAction that is a destination or a plain GoTo is no action; a URI or Named one is", async () => {
    const open = (value: string) => handWrittenPdf(onePageObjects({ catalog: `/OpenAction ${value}` }));
    expect(await seenByWorker(open("[3 0 R /Fit]"))).toEqual([]);
    expect(await seenByWorker(open("<< /S /GoTo /D [3 0 R /Fit] >>"))).toEqual([]);
    expect(await seenByWorker(open("<< /S /GoTo /D [3 0 R /Fit] /Next << /S /URI /URI (https://x.example) >> >>"))).toEqual(["actions"]);
    expect(await seenByWorker(open("<< /S /URI /URI (https://x.example) >>"))).toEqual(["actions"]);
    expect(await seenByWorker(open("<< /S /Named /N /Print >>"))).toEqual(["actions"]);
    // A web link on the page is not active content (lab reports may link their site).
    const web = handWrittenPdf(onePageObjects({ page: "/Annots [6 0 R]", more: ["<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A << /S /URI /URI (https://harborview.example/verify) >> >>"] }));
    expect(await seenByWorker(web)).toEqual([]);
  });

  it("an encrypted file's unreadable object streams are left to originality (refused as encrypted)", async () => {
    const locked = await parseFixture(await ownerPasswordOnlyPdf(o));
    expect(locked.encrypted).toBe(true);
    expect(locked.activeContent).toEqual([]);
  });

  it("hostile structure: never throws, and stays linear", () => {
    const mib = 1 << 20;
    const hostile = [
      `%PDF-1.7\n1 0 obj\n${"[".repeat(mib)}\nendobj\n`,
      `%PDF-1.7\n1 0 obj\n${"<<".repeat(mib / 2)}\nendobj\n`,
      `%PDF-1.7\n${"1".repeat(2 * mib)} x\n`,
      `%PDF-1.7\n${"1 ".repeat(mib)}\n`,
      `%PDF-1.7\n1 0 obj\n(${"(".repeat(mib)}\nendobj\n2 0 obj << /AA << >> >> endobj\n`,
      `%PDF-1.7\n1 %${" %".repeat(mib)}\n0 obj << >> endobj\n`,
      `%PDF-1.7\n${"trailer ".repeat(mib / 8)}\n`,
    ];
    for (const text of hostile) {
      const started = performance.now();
      const scan = scanObjects(Buffer.from(text, "latin1"));
      expect(scan.unreadableObjectStreams).toBe(0);
      expect(performance.now() - started, text.slice(9, 20)).toBeLessThan(3000);
    }
    // An object header found anywhere is read, even inside another object's string.
    expect(scanObjects(Buffer.from("%PDF-1.7\n1 0 obj\n(\n2 0 obj << /AA << >> >> endobj\n", "latin1")).found).toEqual(["actions"]);
  });
});

describe("the report's identity (duplicates in other bytes)", () => {
  async function identityOf(bytes: Uint8Array): Promise<string> {
    const pdf = await parseFixture(bytes);
    const lab = recogniseIssuer(pdf);
    return reportIdentityKey({ labId: lab.id, ...extractReport(pdf.page1.items, lab) });
  }

  it("the same report saved again, or with white space appended, has the same key; each part of the identity changes it", async () => {
    for (const lab of LABS) {
      const report = await labPdf(lab, o);
      const key = await identityOf(report);
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(await identityOf(await resavedPdf(report)), lab).toBe(key);
      expect(await identityOf(byteAppended(report, "\n")), lab).toBe(key);
      // Another layout of the same report (the lab's software updated): still the same report.
      expect(await identityOf(await labPdf(lab, { ...o, variation: { shuffle: true, split: "words", extraText: true } })), lab).toBe(key);
      for (const other of [
        { ...o, collectedAt: new Date(o.collectedAt.getTime() + 60_000) },
        { ...o, dob: "1990-12-11" },
        { ...o, firstName: "Augusta" },
        { ...o, lastName: "King" },
        { ...o, method: "antigen" as const },
        { ...o, result: "positive" as const },
      ]) {
        const differs = other.result === undefined;
        // The result is not part of the identity: one specimen's report is one report.
        expect((await identityOf(await labPdf(lab, other))) !== key, `${lab} ${JSON.stringify(other)}`).toBe(differs);
      }
    }
    expect(await identityOf(await labPdf("meridian", o))).not.toBe(await identityOf(await labPdf("harborview", o)));
  });

  it("names are compared folded: NFC, white space and case", () => {
    const base = { labId: "harborview", lastName: "MÜLLER", givenNames: "ZOË  ANN", dob: "1990-12-10", collectedAt: o.collectedAt, testName: "SARS-CoV-2 RNA, Qualitative NAAT" };
    const key = reportIdentityKey(base);
    expect(reportIdentityKey({ ...base, lastName: "mu\u0308ller", givenNames: " Zoë Ann " })).toBe(key);
    expect(reportIdentityKey({ ...base, lastName: "MULLER" })).not.toBe(key);
    expect(reportIdentityKey({ ...base, testName: "SARS-CoV-2 Antigen, Rapid Immunoassay" })).not.toBe(key);
  });
});
