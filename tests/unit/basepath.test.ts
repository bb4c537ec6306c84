import { describe, expect, it } from "vitest";
import { withBasePath } from "../../app/server/basepath.server";

describe("withBasePath", () => {
  it("prefixes app paths", () => {
    expect(withBasePath("/login?redirectTo=%2Fsettings", "/sw")).toBe("/sw/login?redirectTo=%2Fsettings");
    expect(withBasePath("/", "/sw")).toBe("/sw/");
  });
  it("leaves paths that already carry it, other origins and the root base alone", () => {
    expect(withBasePath("/sw/login", "/sw")).toBe("/sw/login");
    expect(withBasePath("/sw", "/sw")).toBe("/sw");
    expect(withBasePath("/swallow", "/sw")).toBe("/sw/swallow");
    expect(withBasePath("https://elsewhere.example/x", "/sw")).toBe("https://elsewhere.example/x");
    expect(withBasePath("//elsewhere.example/x", "/sw")).toBe("//elsewhere.example/x");
    expect(withBasePath("/login", "")).toBe("/login");
  });
});
