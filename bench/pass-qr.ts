// The SafeWindow Pass's size (docs/product/pass.md §11.1; docs/decisions/0020-pass-format.md): the
// characters of the QR's URL and the QR version at error correction M, for a usual pass and for
// the worst case the unit test bounds (a 60-character public address, the longest claims), and the
// pass screen's HTML and SVG once gzipped. Prints a Markdown table; `npm run bench:pass` writes it
// to bench/pass-qr.results.md.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import { generateKeyPair } from "jose";
import QRCode from "qrcode";
import { passUrl, signPass, type PassClaims } from "../contracts/pass.ts";

const { privateKey } = await generateKeyPair("ES256");
const now = Math.floor(Date.now() / 1000);
const cases: [string, string, PassClaims, string][] = [
  ["usual: 30-character address, 8-character kid", "https://safewindow.example.com", { iss: "", n: "AL", b: "12-10", s: now + 36 * 3600, iat: now, exp: now + 60 * 3600 }, "abcdefgh"],
  ["a base path: https://health.example.org/safewindow", "https://health.example.org/safewindow", { iss: "", n: "AL", b: "12-10", s: now + 36 * 3600, iat: now, exp: now + 60 * 3600 }, "abcdefgh"],
  ["worst case: 60-character address, 4-byte letters, 11-digit dates", `https://${"a".repeat(49)}/sw`, { iss: "", n: "𝔄𝔅", b: "12-31", s: 99_999_999_999, iat: 99_999_999_999, exp: 99_999_999_999 }, "abcdefgh"],
];

const rows: string[] = [];
for (const [name, iss, claims, kid] of cases) {
  const url = passUrl(iss, await signPass({ ...claims, iss }, { kid, privateKey }));
  const qr = QRCode.create(url, { errorCorrectionLevel: "M" });
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
  rows.push(`| ${name} | ${url.length} | ${qr.version} (${qr.modules.size} modules) | ${gzipSync(svg).length} B |`);
}

const table = [
  `# bench/pass-qr results`,
  ``,
  `Run: ${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.split(" ")[0] ?? "CPU"} · ${os.platform()} ${os.release()}`,
  `The QR code's text is \`<iss>/verify#<pass>\` (ES256, compact JWS); error correction M; the SVG as the pass screen draws it (quiet zone 4), gzipped. Target: version ≤ 15 (tests/unit/pass.test.ts fails above it for the worst case).`,
  ``,
  `| pass | URL characters | QR version | SVG gzip |`,
  `|---|---|---|---|`,
  ...rows,
  ``,
].join("\n");
console.log(table);
if (process.argv.includes("--write")) writeFileSync(new URL("./pass-qr.results.md", import.meta.url), table);
