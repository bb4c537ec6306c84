// `npm run trust:refresh-vci`: replaces services/consumer/trust/vci/ with the VCI Directory's current
// snapshot (services/consumer/trust/vci/SOURCE.md), only when its certificate is the pinned one and
// its signature verifies. Needs network access to raw.githubusercontent.com.
import { X509Certificate, verify } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { VCI_CERT_SHA256, VCI_DIR, loadVciSnapshot } from "../services/consumer/results/proof/trust.ts";

const BASE = "https://raw.githubusercontent.com/the-commons-project/vci-directory/main/";

async function download(file: string): Promise<Buffer> {
  const res = await fetch(BASE + file, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`${file}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

const [snapshot, signature, certificate] = await Promise.all([download("logs/vci_snapshot.json"), download("logs/vci_snapshot.sig"), download("vci_snapshot.crt")]);
const cert = new X509Certificate(certificate);
if (cert.fingerprint256 !== VCI_CERT_SHA256) throw new Error(`The certificate changed (${cert.fingerprint256}); check it out of band before pinning it.`);
if (!verify("sha512", snapshot, cert.publicKey, signature)) throw new Error("The snapshot's signature does not verify; nothing replaced.");
await writeFile(path.join(VCI_DIR, "vci_snapshot.json"), snapshot);
await writeFile(path.join(VCI_DIR, "vci_snapshot.sig"), signature);
await writeFile(path.join(VCI_DIR, "vci_snapshot.crt"), certificate);
const issuers = loadVciSnapshot();
const time = (JSON.parse(snapshot.toString("utf8")) as { time?: string }).time;
console.log(`VCI snapshot of ${time}: ${issuers.length} issuers, ${snapshot.byteLength} bytes. Update SOURCE.md, run the tests, commit.`);
