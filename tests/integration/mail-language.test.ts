// The reference services word their mail in the person's language (docs/product/calls.md §7.4 "The
// mail's language"): a request's Accept-Language picks English or Spanish (anything else English), the
// account keeps the last language its holder asked for, and a mail sent later with no language behind
// it (a held confirmation, a notice, a reviewer's decision) follows the kept one. Real services on
// PGlite; the mails are read from each service's outbox directory as the e2e tests read them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUtc } from "../../services/shared/mail.ts";
import { harborviewPdf } from "../fixtures/index.ts";
import { accessToken, callApi, contractFetch, json, mailAfter, makePerson, makeUser, startServices } from "./support.ts";
import type { Services, TestUser } from "./support.ts";

const REVIEWER = `lang-reviewer-${Math.random().toString(36).slice(2, 8)}@example.com`;
const ADA = { firstName: "Ada", lastName: "Lovelace", dob: "1990-12-10", postalCode: "94105" };
let services: Services;

beforeAll(async () => {
  services = await startServices({ client: { clientId: "safewindow-web", clientSecret: "mail-language-secret-0123456789" }, tmpPrefix: "mail-language-", reviewers: [REVIEWER] });
});

afterAll(async () => {
  await services?.close();
});

let counter = 0;
const freshAddress = (tag: string) => `${tag}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PASSWORD = "Lengua!pass1";

/** Headers of an identity call as the web app's client, with `language` as Accept-Language (none: Node's default `*`). */
async function clientHeaders(language?: string): Promise<Record<string, string>> {
  const token = await accessToken(services, { grant_type: "client_credentials", scope: "identity.api" });
  return { authorization: `Bearer ${token}`, ...(language ? { "accept-language": language } : {}) };
}

/** POST /api/account/register as the app does, in `language`; asserts success. */
async function register(email: string, language?: string): Promise<void> {
  const res = await contractFetch(`${services.identityUrl}/api/account/register`, {
    method: "POST",
    headers: { ...(await clientHeaders(language)), "content-type": "application/json" },
    body: JSON.stringify({ userName: email, password: PASSWORD }),
  });
  expect(await res.json()).toMatchObject({ succeeded: true });
}

/** GET /api/account/<call>?<query> as the client, in `language`; asserts a 200. */
async function accountCall(call: string, query: Record<string, string>, language?: string, bearer?: string): Promise<unknown> {
  const headers = bearer ? { authorization: `Bearer ${bearer}`, ...(language ? { "accept-language": language } : {}) } : await clientHeaders(language);
  const res = await contractFetch(`${services.identityUrl}/api/account/${call}?${new URLSearchParams(query)}`, { headers });
  expect(res.status).toBe(200);
  return res.json();
}

/** The password grant for `email`, in `language` (a sign-in); the access token. */
async function signIn(email: string, password: string, language?: string): Promise<string> {
  const { clientId, clientSecret } = services.client;
  const res = await contractFetch(`${services.identityUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(language ? { "accept-language": language } : {}) },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: "password", username: email, password, scope: "openid profile identity.user" }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const SPANISH_CONFIRM_SUBJECT = "Confirme su dirección de correo electrónico de SafeWindow";

describe("the identity authority's mail language", () => {
  it("writes the confirmation mail of a registration made in Spanish in Spanish, also when the later send says no language", async () => {
    const email = freshAddress("es-register");
    await register(email, "es");
    // The app asks for the held mail right away; this call carries only Node's default `*`.
    const mail = await mailAfter(services, email, () => accountCall("sendconfirmationemail", { email, requestedUri: "http://localhost:3000/confirmemail" }));
    expect(mail.subject).toBe(SPANISH_CONFIRM_SUBJECT);
    // Marked Spanish for mail programs and screen readers: the header and the HTML part's root.
    expect([mail.contentLanguage, mail.htmlLang]).toEqual(["es", "es"]);
    expect(mail.link?.href).toMatch(/^http:\/\/localhost:3000\/confirmemail\?email=.+&token=/);
    expect(mail.text.trimEnd()).toBe(
      "Confirme la dirección de correo electrónico de su cuenta de SafeWindow abriendo este enlace:\n\n" +
        `${mail.link?.href}\n\n` +
        "El enlace funciona una sola vez y durante 24 horas. Si usted no solicitó una cuenta de SafeWindow, ignore este mensaje.",
    );
  });

  it("writes in English when nothing says otherwise, and for a language it does not write", async () => {
    for (const language of [undefined, "fr-FR, de;q=0.8"]) {
      const email = freshAddress("en-register");
      await register(email, language);
      const mail = await mailAfter(services, email, () => accountCall("sendconfirmationemail", { email }));
      expect(mail.subject).toBe("Confirm your SafeWindow e-mail address");
      expect([mail.contentLanguage, mail.htmlLang]).toEqual(["en", "en"]);
      expect(mail.text).toContain("Please confirm the e-mail address of your SafeWindow account by opening this link:");
      expect(mail.text).toContain("If you did not ask for a SafeWindow account, ignore this message.");
    }
  });

  it("writes a reset requested in Spanish in Spanish; the link's reset keeps its language, and a later notice follows it", async () => {
    const email = freshAddress("es-reset");
    await register(email); // an English account
    const reset = await mailAfter(services, email, () => accountCall("requestpasswordchange", { email, requestedUri: "http://localhost:3000/resetpassword" }, "es-US,es;q=0.9,en;q=0.5"));
    expect(reset.subject).toBe("Restablezca su contraseña de SafeWindow");
    expect(reset.text).toContain("Alguien solicitó restablecer la contraseña de su cuenta de SafeWindow. Para elegir una contraseña nueva, abra este enlace:");
    expect(reset.text).toContain("El enlace funciona una sola vez y durante 1 hora.");
    const token = reset.link?.searchParams.get("token");
    expect(token).toBeTruthy();

    // Redeeming the link in Spanish: its notice is in Spanish and the account keeps Spanish.
    const newPassword = "Nueva!clave2";
    const notice = await mailAfter(services, email, () => accountCall("changepasswordusingtoken", { email, token: token!, newPassword }, "es"));
    expect(notice.subject).toBe("Se restableció su contraseña de SafeWindow");
    expect([notice.contentLanguage, notice.htmlLang]).toEqual(["es", "es"]);
    expect(notice.text).toMatch(/Hora del cambio: \d{1,2} de [a-z]+ de \d{4}, \d\d:\d\d:\d\d UTC \(tiempo universal coordinado\)/);

    // A later change whose request says no language follows the kept one.
    const bearer = await signIn(email, newPassword);
    const changed = await mailAfter(services, email, () =>
      accountCall("changepasswordusingcurrent", { currentPassword: newPassword, newPassword: "Otra!clave3" }, undefined, bearer),
    );
    expect(changed.subject).toBe("Se cambió su contraseña de SafeWindow");
    expect(changed.text).toContain("Solicitar un enlace para restablecer la contraseña: http://localhost:3000/requestpasswordchange");
  });

  it("keeps the language of a sign-in; an explicit English one later takes it back", async () => {
    const email = freshAddress("signin");
    await register(email); // English so far
    const spanish = await signIn(email, PASSWORD, "es");
    const first = await mailAfter(services, email, () => accountCall("changepasswordusingcurrent", { currentPassword: PASSWORD, newPassword: "Segunda!clave2" }, undefined, spanish));
    expect(first.subject).toBe("Se cambió su contraseña de SafeWindow");

    const english = await signIn(email, "Segunda!clave2", "en-US");
    const second = await mailAfter(services, email, () => accountCall("changepasswordusingcurrent", { currentPassword: "Segunda!clave2", newPassword: "Tercera!clave3" }, undefined, english));
    expect(second.subject).toBe("Your SafeWindow password was changed");
    expect(second.text).toContain("Time of the change: ");
  });
});

describe("the identity authority's notices after a change with no language", () => {
  it("follow the kept Spanish: an e-mail change's two mails, then the deleted account's notice", async () => {
    const email = freshAddress("es-change");
    await register(email, "es");
    const bearer = await signIn(email, PASSWORD); // says no language: Spanish stays
    const moved = freshAddress("es-moved");
    let notice: Awaited<ReturnType<typeof mailAfter>> | undefined;
    const confirmation = await mailAfter(services, moved, async () => {
      notice = await mailAfter(services, email, async () => expect(await accountCall("changeusername", { userName: moved }, undefined, bearer)).toBe(true));
    });
    expect(confirmation.subject).toBe(SPANISH_CONFIRM_SUBJECT);
    expect(notice?.subject).toBe("Se cambió la dirección de correo electrónico de su cuenta de SafeWindow");
    expect(notice?.text).toContain(`La dirección de correo electrónico de su cuenta de SafeWindow cambió de ${email} a ${moved}.`);

    const again = await signIn(moved, PASSWORD, "*");
    const deleted = await mailAfter(services, moved, async () => {
      const res = await contractFetch(`${services.identityUrl}/api/account/delete`, {
        method: "POST",
        headers: { authorization: `Bearer ${again}`, "content-type": "application/json" },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(await res.json()).toBe(true);
    });
    expect(deleted.subject).toBe("Se eliminó su cuenta de SafeWindow");
    expect(deleted.text).toContain("Esto no se puede deshacer.");
  });
});

describe("the consumer API's mail language", () => {
  it("writes a dispute's decision in its owner's kept language, whatever the reviewer's request says", async () => {
    const ada = await makePerson(services, ADA, { tag: "es-dispute" });
    const reviewer = await makeUser(services, { email: REVIEWER, confirmed: true });
    const api = (p: string, who: TestUser, language: string, init: RequestInit = {}) =>
      callApi(services, p, who, { ...init, headers: { ...(init.headers as Record<string, string>), "accept-language": language } });
    const body = new FormData();
    const collectedAt = new Date(Math.floor((Date.now() - 3 * 3600_000) / 60_000) * 60_000);
    body.append("multipartData", new Blob([(await harborviewPdf({ ...ADA, firstName: "Adda", collectedAt })).slice()], { type: "application/pdf" }), "r.pdf");
    const id = (await json(await api("/testresult/addtestresultmultipart/", ada, "es", { method: "POST", body }))).sF_TestResultId as string;
    expect(id).toBeTruthy();
    const post = (p: string, who: TestUser, language: string, value: unknown) =>
      api(p, who, language, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(value) });
    expect((await post("/testresult/dispute/", ada, "es", { sF_TestResultId: id, disputeComment: "Mi nombre tiene un error." })).status).toBe(200);
    // A later call of the owner that says no language keeps Spanish.
    expect((await callApi(services, "/consumer", ada)).status).toBe(200);

    const mail = await mailAfter(
      services,
      ada.email,
      async () => {
        const decided = await post("/testresult/reviewdispute/", reviewer, "en-US", { sF_TestResultId: id, decision: "accept", responseComment: "Typo confirmed." });
        expect(decided.status).toBe(200);
      },
      "consumer",
    );
    expect(mail.subject).toBe("Se revisó su reclamación de SafeWindow");
    expect([mail.contentLanguage, mail.htmlLang]).toEqual(["es", "es"]);
    expect(mail.text).toContain("Revisamos su reclamación sobre su resultado de ");
    expect(mail.text).toContain(` del ${formatUtc(collectedAt, "es")} y la aceptamos: el resultado ahora es válido y cuenta para su ventana segura.`);
    expect(formatUtc(collectedAt, "es")).toMatch(/^\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}, \d\d:\d\d:00 UTC \(tiempo universal coordinado\)$/);
    expect(mail.text).toContain("Nuestra respuesta: Typo confirmed.");
    expect(mail.text).toContain(`Abrir el resultado: http://localhost:3000/testdetail?id=${id}&tab=dispute`);
    // "Download my data" says the language kept.
    expect((await json(await callApi(services, "/consumer/export", ada))).language).toBe("es");
  });
});
