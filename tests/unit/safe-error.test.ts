import { describe, expect, it } from "vitest";
import { safeError } from "../../services/shared/http";

describe("safeError (what the reference services log of an error)", () => {
  it("logs a thrown non-Error object by its name, message and code, never as [object Object] or with its values", () => {
    const logged = safeError({ name: "DatabaseError", message: "invalid byte sequence for encoding \"UTF8\": 0x00", code: "22021", detail: "row (secret@example.com)" });
    expect(logged).toEqual({ type: "DatabaseError", message: 'invalid byte sequence for encoding "UTF8": 0x00', code: "22021" });
    expect(JSON.stringify(safeError({ detail: "x" }))).not.toContain("[object Object]");
    expect(JSON.stringify(safeError({ detail: "secret" }))).not.toContain("secret");
    expect(safeError("plain")).toEqual({ type: "string", message: "plain" });
  });
});
