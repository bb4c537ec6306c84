/**
 * One Spanish wording per term (docs/glossary-es.md "Terms"): the glossary's "Not ours" column lists,
 * in backticks, the variants the Spanish text does not use ("disputa" for a dispute, "negocio" for
 * a business, "Configuración" for Settings); none of them may appear as a whole word, in any letter
 * case, in a string of the Spanish catalogue (`catalogues.es`: strings, objects' strings and the
 * fixed words of function messages) or in a Spanish mail of the identity authority
 * (services/identity/mail.ts). A variant that differs from its row's Spanish only in letter case
 * ("código zip" beside "código ZIP") is matched in its own case.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogues } from "../../app/messages/catalogues.ts";
import { accountMailRenderer, type AccountMail } from "../../services/identity/mail.ts";
import type { NoticeKind, TokenPurpose } from "../../services/identity/schema/tables.ts";

const glossaryPath = join(import.meta.dirname, "..", "..", "docs", "glossary-es.md");

/** A variant the glossary rules out: the words, the row's English and Spanish, and whether letter case counts. */
interface Variant {
  words: string;
  english: string;
  spanish: string;
  caseSensitive: boolean;
}

/** The cells of a Markdown table row (`| a | b |`), trimmed. */
function cells(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
}

/** The "Not ours" variants of the glossary's terms table. */
function notOurs(markdown: string): Variant[] {
  const lines = markdown.split("\n");
  const headerAt = lines.findIndex((line) => line.trim().startsWith("|") && cells(line).includes("Not ours"));
  if (headerAt < 0) throw new Error("docs/glossary-es.md has no table with a Not ours column");
  const header = cells(lines[headerAt]!);
  const column = { english: header.indexOf("English"), spanish: header.indexOf("Spanish"), notOurs: header.indexOf("Not ours") };
  const variants: Variant[] = [];
  for (const line of lines.slice(headerAt + 2)) {
    if (!line.trim().startsWith("|")) break;
    const row = cells(line);
    expect(row, line).toHaveLength(header.length);
    const english = row[column.english]!;
    const spanish = row[column.spanish]!;
    for (const [, words] of row[column.notOurs]!.matchAll(/`([^`]+)`/g)) {
      variants.push({ words: words!, english, spanish, caseSensitive: spanish.toLocaleLowerCase("es").includes(words!.toLocaleLowerCase("es")) });
    }
  }
  return variants;
}

/** Marks a function message's parameter, to cut its fixed words out around it. */
const hole = "\u0001";

/**
 * Every string in a catalogue entry: strings as they are, an object's strings, and a function's fixed
 * words between its parameters (as tests/e2e/catalogue-english.ts `stringsOf` takes them), called
 * with text, with 1 and with 2 for its parameters so that both branches of a plural are read.
 */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") {
    const calls: unknown[][] = [hole, [hole], 1, 2].map((argument) => Array.from({ length: value.length }, () => argument));
    return calls.flatMap((args) => {
      try {
        const out: unknown = value(...args);
        return typeof out === "string" ? out.split(hole) : [];
      } catch {
        // A parameter of another kind: this call reads nothing.
        return [];
      }
    });
  }
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Every account mail kind, so that each is rendered; a new kind fails the typecheck here until it is listed. */
const mailKinds: Record<TokenPurpose | NoticeKind, true> = {
  confirm_email: true,
  reset_password: true,
  invite: true,
  password_changed: true,
  password_reset: true,
  account_deleted: true,
  email_changed: true,
};

/** What each Spanish account mail says: its subject, its text, and its HTML's text (the link labels). */
function spanishMailTexts(): [string, string][] {
  const render = accountMailRenderer("https://app.example", "help@example.com");
  const at = new Date(Date.UTC(2026, 2, 4, 14, 5, 9));
  return Object.keys(mailKinds).flatMap((kind) => {
    const mail = { kind, to: "ana@example.com", token: "t0k3n", at, newAddress: "ana@example.org", language: "es" } as AccountMail;
    const written = render(mail);
    expect(written.language, kind).toBe("es");
    const htmlText = written.html
      .replace(/<[^>]*>/g, "\n")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    return [written.subject, written.text, htmlText].map((text): [string, string] => [`mail ${kind}`, text]);
  });
}

/** The variant's whole-word pattern: no letter or digit right before or after it (so "pida" is not found in "rápida"). */
function patternOf(variant: Variant): RegExp {
  const escaped = variant.words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, variant.caseSensitive ? "u" : "iu");
}

/** Each use of a variant in `texts`, as "where: «variant» (row) in …context…". */
function usesOf(variants: Variant[], texts: [string, string][]): string[] {
  const found: string[] = [];
  for (const variant of variants) {
    const pattern = patternOf(variant);
    for (const [where, text] of texts) {
      const match = pattern.exec(text);
      if (!match) continue;
      const context = text.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30).replace(/\s+/g, " ");
      found.push(`${where}: «${variant.words}» (not ours for ${variant.english}: ${variant.spanish}) in "…${context}…"`);
    }
  }
  return [...new Set(found)];
}

describe("the Spanish terms of docs/glossary-es.md", () => {
  const variants = notOurs(readFileSync(glossaryPath, "utf8"));

  it("reads the glossary's Not ours column", () => {
    expect(variants.length).toBeGreaterThan(20);
    expect(variants.map((v) => v.words)).toEqual(expect.arrayContaining(["disputa", "Configuración", "negocio", "verificación", "pedir"]));
    expect(variants.find((v) => v.words === "código zip")?.caseSensitive).toBe(true);
    expect(variants.find((v) => v.words === "disputa")?.caseSensitive).toBe(false);
  });

  it("matches whole words only, in any case, and a case variant in its own case", () => {
    const variant = (words: string, spanish = "x"): Variant => ({ words, english: "x", spanish, caseSensitive: spanish.toLowerCase().includes(words.toLowerCase()) });
    expect(usesOf([variant("pida")], [["t", "Una prueba rápida de antígenos"]])).toEqual([]);
    expect(usesOf([variant("pida")], [["t", "Pida un enlace."]])).toHaveLength(1);
    expect(usesOf([variant("negocio")], [["t", "Los negocios"]])).toEqual([]);
    expect(usesOf([variant("Configuración")], [["t", "Mi configuración"]])).toHaveLength(1);
    expect(usesOf([variant("código zip", "código ZIP")], [["t", "Busque por código ZIP."]])).toEqual([]);
    expect(usesOf([variant("código zip", "código ZIP")], [["t", "Busque por código zip."]])).toHaveLength(1);
  });

  it("finds none of the variants that are not ours in the Spanish catalogue or the identity authority's Spanish mails", () => {
    const catalogueTexts = Object.entries(catalogues.es).flatMap(([key, value]) => [...new Set(stringsOf(value))].map((text): [string, string] => [key, text]));
    expect(catalogueTexts.length).toBeGreaterThan(300);
    const mailTexts = spanishMailTexts();
    expect(mailTexts.some(([, text]) => text.includes("restablecer la contraseña"))).toBe(true);
    expect(usesOf(variants, [...catalogueTexts, ...mailTexts])).toEqual([]);
  });
});
