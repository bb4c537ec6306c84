/**
 * Private signing keys stored sealed (docs/decisions/0015-owner-only-data-dir.md "Where the key
 * lives"): AES-256-GCM under a key derived from a secret kept outside the database (HKDF-SHA256,
 * one `purpose` per kind of key), the key id as associated data. A reader of the database's files,
 * a dump or a backup of the database alone learns no key. Used by the identity authority's token
 * key and the consumer API's pass key.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Prefix of a sealed key: format 1 is `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
const SEALED_V1 = "v1";

/** A sealed key that cannot be opened: another secret, another key id or purpose, or changed bytes. */
export class SealError extends Error {
  constructor() {
    super("the sealed key does not open with this secret");
    this.name = "SealError";
  }
}

/** The AES-256 key of `purpose` (e.g. "safewindow identity signing key seal v1"), derived from `secret`. */
function sealingKeyOf(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", purpose, 32));
}

/**
 * Seals `text` (a private JWK's JSON) under `secret` for `purpose`, bound to `kid`.
 * @returns `v1.<iv>.<ciphertext>.<tag>` (base64url parts; 12-byte IV, 16-byte GCM tag)
 */
export function seal(text: string, kid: string, secret: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKeyOf(secret, purpose), iv);
  cipher.setAAD(Buffer.from(kid));
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [SEALED_V1, iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/**
 * The text sealed by `seal` with the same `kid`, `secret` and `purpose`.
 * @throws SealError when `sealed` is not format 1, or anything differs from how it was sealed
 */
export function unseal(sealed: string, kid: string, secret: string, purpose: string): string {
  const [format, iv, data, tag] = sealed.split(".");
  if (format !== SEALED_V1 || !iv || data === undefined || !tag) throw new SealError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKeyOf(secret, purpose), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError();
  }
}
