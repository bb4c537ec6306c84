// The CSP nonce (app/server/csp-nonce.server.ts): 128 bits, base64, new for every response; drawn from
// a buffer filled by the CSPRNG, every byte handed out once and the buffer filled again before reuse.
import { randomFillSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

/** A fill the test can read back: each fill writes the fill's number and the byte's index. */
let fills = 0;
vi.mock("node:crypto", async (importOriginal) => {
  const crypto = await importOriginal<typeof import("node:crypto")>();
  return {
    ...crypto,
    randomFillSync: vi.fn((buffer: Buffer) => {
      if (process.env.NONCE_TEST_PATTERN !== "1") return crypto.randomFillSync(buffer);
      fills++;
      for (let i = 0; i < buffer.length; i++) buffer[i] = (fills * 31 + i) & 0xff;
      return buffer;
    }),
  };
});

const { cspNonce, nonceBytes, noncesPerFill } = await import("../../app/server/csp-nonce.server");

afterEach(() => {
  delete process.env.NONCE_TEST_PATTERN;
});

describe("cspNonce", () => {
  it("gives 128 random bits as 24 base64 characters, never the same twice over many fills", () => {
    const seen = new Set<string>();
    for (let n = 0; n < 20 * noncesPerFill; n++) {
      const nonce = cspNonce();
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      seen.add(nonce);
    }
    expect(nonceBytes).toBe(16);
    expect(seen.size).toBe(20 * noncesPerFill);
  });

  it("hands out each byte of a fill once, in order, and fills again before any byte is used twice", () => {
    // Use up what the earlier test left, so that the next nonce starts a fill of the test's pattern.
    process.env.NONCE_TEST_PATTERN = "1";
    const fill = vi.mocked(randomFillSync);
    fill.mockClear();
    while (fill.mock.calls.length === 0) cspNonce();
    const first = fills;
    const expected = (fillNumber: number, index: number) => (fillNumber * 31 + index) & 0xff;
    // The nonce that started the fill was its first; the rest of the fill follows byte by byte.
    for (let n = 1; n < noncesPerFill; n++) {
      const bytes = Buffer.from(cspNonce(), "base64");
      for (let i = 0; i < nonceBytes; i++) expect(bytes[i]).toBe(expected(first, n * nonceBytes + i));
    }
    expect(fill).toHaveBeenCalledTimes(1);
    const next = Buffer.from(cspNonce(), "base64");
    expect(fill).toHaveBeenCalledTimes(2);
    expect([...next]).toEqual(Array.from({ length: nonceBytes }, (_, i) => expected(first + 1, i)));
  });
});
