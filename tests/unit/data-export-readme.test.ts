/**
 * The data export's README.txt (app/server/data-export.server.ts, docs/product/screens.md §2.5) in
 * every language: the English as it always was, byte for byte, and each translation with every
 * description, laid out beside its file's name within 110 columns.
 */
import { describe, expect, it } from "vitest";
import { catalogueLanguages } from "../../app/i18n";
import { catalogues } from "../../app/messages/catalogues";
import { dataExportReadme } from "../../app/server/data-export.server";

const exportedAt = "2026-11-26T16:00:00.000Z";

describe("the data export's README.txt", () => {
  it("in English, is the text it has always been", () => {
    expect(dataExportReadme(catalogues.en, { email: "ada@example.com" }, exportedAt)).toBe(
      [
        "Your SafeWindow data",
        "",
        "Made on 2026-11-26T16:00:00.000Z (UTC) for ada@example.com.",
        "",
        "safewindow-data.json  your account, your profile, every test result with the checks we made and your disputes",
        "                      with our responses, the people who follow you and whom you follow, and every check a",
        "                      venue made of your window with your check-ins and ratings, and, when you work for a",
        "                      venue, your business details and the venues you administer (JSON).",
        "results/              one folder per test result: page-1.jpg, the image we show, and original.pdf, the PDF",
        "                      exactly as you uploaded it.",
        "",
      ].join("\n"),
    );
    expect(dataExportReadme(catalogues.en, { email: null }, exportedAt)).toContain("(UTC) for your account.");
  });

  it.each(catalogueLanguages)("in %s, has every description whole, beside its file's name, within 110 columns", (language) => {
    const m = catalogues[language];
    const text = dataExportReadme(m, { email: null }, exportedAt);
    const lines = text.split("\n");
    expect(lines[0]).toBe(m.dataExportReadmeTitle);
    expect(lines[2]).toBe(m.dataExportMadeOn(exportedAt, m.dataExportYourAccount));
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(110);
    // Each description, its lines joined again, is the catalogue's paragraph; its first line starts beside the name.
    const described = (name: string) => {
      const start = lines.findIndex((line) => line.startsWith(`${name} `));
      expect(start, name).toBeGreaterThan(0);
      const own = [lines[start]!.slice(22)];
      for (let i = start + 1; lines[i]!.startsWith(" ".repeat(22)); i++) own.push(lines[i]!.slice(22));
      return own.join(" ");
    };
    expect(described("safewindow-data.json")).toBe(m.dataExportJsonFile);
    expect(described("results/")).toBe(m.dataExportResultsFolder);
  });
});
