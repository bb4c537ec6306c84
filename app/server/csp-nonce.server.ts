/**
 * The CSP nonce of a response (docs/security/input.md "Headers"): 128 random bits, base64 (24
 * characters), new for every response.
 *
 * The bits come from the operating system's CSPRNG through `crypto.randomFillSync`, as
 * `crypto.randomBytes` gives them, but drawn for `noncesPerFill` responses at once: a call for 16
 * bytes cost the web app's main thread about as much as a call for 4 KiB (a job object and a trip
 * into OpenSSL each time; bench/README.md "What the sixth round cut"). Every byte of the buffer is
 * handed out once, and the buffer is filled again before any byte would be used a second time.
 */
import { randomFillSync } from "node:crypto";

/** Random bytes in a nonce: 128 bits, as CSP Level 3 asks of a nonce at least. */
export const nonceBytes = 16;

/** Nonces drawn from one fill of the buffer. */
export const noncesPerFill = 256;

const pool = Buffer.alloc(nonceBytes * noncesPerFill);
/** The start of the next unused nonce in `pool`; past the end, the pool is filled first. */
let next = pool.length;

/**
 * A new nonce: `nonceBytes` bytes never handed out before, base64 (24 characters, `=`-padded).
 * @throws what `randomFillSync` throws (the operating system gave no random bytes)
 */
export function cspNonce(): string {
  if (next >= pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const nonce = pool.toString("base64", next, next + nonceBytes);
  next += nonceBytes;
  return nonce;
}
