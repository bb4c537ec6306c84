import { describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { paths, routePathOf } from "../../app/paths";

describe("routePathOf", () => {
  it.each([
    ["/mytests", "", "mytests"],
    ["/MyTests/", "", "mytests"],
    ["/mytests.data", "", "mytests"],
    ["//mytests//", "", "mytests"],
    ["/%6Dytests", "", "mytests"],
    ["/consumer/Login.data/", "", "login"],
    ["/app/mytests", "/app", "mytests"],
    ["/APP/mytests.data", "/app", "mytests"],
    ["/", "", ""],
    ["/%E0%A4%A", "", "%e0%a4%a"],
  ])("reads %s (base %j) as %j", (path, base, expected) => {
    expect(routePathOf(path, base)).toBe(expected);
  });

  it("does not strip a base path that is only a prefix of the first segment", () => {
    expect(routePathOf("/application/mytests", "/app")).toBe("application/mytests");
  });
});

describe("paths", () => {
  it("names routes that the route table really has", () => {
    const routePaths = new Set<string>();
    const walk = (entries: readonly { path?: string; children?: readonly unknown[] }[]) => {
      for (const entry of entries) {
        if (entry.path) routePaths.add(entry.path);
        if (entry.children) walk(entry.children as typeof entries);
      }
    };
    walk(routes);
    for (const path of Object.values(paths)) expect(routePaths, path).toContain(path);
  });
});
