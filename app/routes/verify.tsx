// app/routes/verify.tsx: /verify, the SafeWindow Pass checker (docs/product/pass.md §11.5), open
// to anyone, no account or cookie needed, in the checker's own language. With JavaScript the pass is
// checked in the browser (WebCrypto) against the published keys the page carries, from the QR's URL
// (its fragment), the camera, the pasted text or a photo, and no request leaves the page to check it.
// Without JavaScript (or without WebCrypto) the form posts the text or a photo, and the server checks
// it and keeps nothing. The camera and WebAssembly are allowed on this page alone (server/app.ts).
import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "react-router";
import type { JSONWebKeySet } from "jose";
import type { Route } from "./+types/verify";
import { checkPass, passClockToleranceSeconds, passInText, passTextMaxChars, verifyPath } from "../../contracts/pass.ts";
import { PassScanner } from "~/components/PassScanner";
import { PassVerdict, verdictOf, type Verdict } from "~/components/PassVerdict";
import { maxPassPhotoBytes } from "~/limits";
import { requestContext } from "~/server/context";
import { readForm } from "~/server/form.server";
import { languageOf, messagesOf } from "~/server/i18n.server";
import type { SharedPageHandle } from "~/server/page-cache.server";
import { passIssuerOf, passKeys, rememberStrongOnly, strongOnlyOf } from "~/server/pass.server";
import { timeZoneOf } from "~/server/timezone.server";
import { verifyText } from "~/server/verify.server";
import { failureInit } from "~/server/upstream/result.server";

/** Every checker gets the same page (the keys and the words of its language): kept in the shared page cache. */
export const handle: SharedPageHandle = { sharedPage: true };

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.text.title }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const m = messagesOf(context);
  const keys = await passKeys(context.get(requestContext).log, m.verifyUnavailable);
  // Where the consumer API does not serve the pass, there is no checker.
  if (!keys.ok && keys.reason === "notFound") throw data(null, { status: 404 });
  const issuer = passIssuerOf(request);
  const host = new URL(issuer).host;
  return {
    keys: keys.ok ? keys.value : null,
    unavailable: keys.ok ? null : m.verifyUnavailable,
    issuer,
    host,
    serverNow: Date.now(),
    timeZone: await timeZoneOf(request, context),
    language: languageOf(context),
    strongOnly: await strongOnlyOf(request),
    text: verifyText(m, host),
  };
}

/**
 * A check posted without JavaScript (or without WebCrypto): the pasted text, or the photo's QR code
 * read on the worker thread, checked here; nothing of it is kept, and nothing of it is logged. Or the
 * "Strong only" setting, remembered in a cookie.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  if (form.get("intent") === "strong-only") {
    return redirect(verifyPath, { headers: { "Set-Cookie": await rememberStrongOnly(form.get("strongOnly") === "on") } });
  }
  const m = messagesOf(context);
  const photo = form.get("photo");
  const pasted = form.get("pass");
  let text: string;
  if (photo instanceof File && photo.size > 0) {
    if (photo.size > maxPassPhotoBytes) return { verdict: { ok: false, photo: "too_large" } as Verdict, error: null };
    const read = await context.get(requestContext).readQrPhoto(new Uint8Array(await photo.arrayBuffer()));
    if (!read.ok) return { verdict: { ok: false, photo: read.reason } as Verdict, error: null };
    text = read.text;
  } else if (typeof pasted === "string" && pasted.trim() !== "") {
    text = pasted;
  } else {
    return data({ verdict: null, error: m.verifyNothingGiven }, { status: 400 });
  }
  const issuer = passIssuerOf(request);
  const found = passInText(text, issuer);
  if (typeof found !== "string") return { verdict: { ok: false, reason: found.reason } as Verdict, error: null };
  const keys = await passKeys(context.get(requestContext).log, m.verifyUnavailable);
  if (!keys.ok) return data({ verdict: null, error: m.verifyUnavailable }, failureInit(keys));
  return { verdict: verdictOf(await checkPass(found, keys.value, issuer, new Date())), error: null };
}

/** Longest side, in pixels, a photo is drawn at to read its QR code in the browser. */
const photoSide = 1600;

/** The text of the QR code in a photo, read by the page's own decoder (loaded now); undefined when none is read. */
async function qrOfPhoto(photo: Blob): Promise<string | undefined> {
  const { readQrFromFrame } = await import("~/components/qr-decoder.client");
  const bitmap = await createImageBitmap(photo);
  const scale = Math.min(1, photoSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return undefined;
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return readQrFromFrame(context.getImageData(0, 0, canvas.width, canvas.height));
}

export default function Verify() {
  const { keys, unavailable, issuer, host, serverNow, timeZone, language, strongOnly, text } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const setting = useFetcher();
  const [checked, setChecked] = useState<Verdict | null>(null);
  const [clockOff, setClockOff] = useState(false);
  const keySet = useRef(keys);
  const verdictRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // A posted check's answer replaces one made here.
  useEffect(() => setChecked(null), [posted]);
  const verdict = checked ?? posted?.verdict ?? null;
  const strongOnlyNow = setting.formData ? setting.formData.get("strongOnly") === "on" : strongOnly;

  /** Checks `given` (a pass or its URL) here, or on the server where this browser has no WebCrypto. */
  async function checkHere(given: string) {
    if (!globalThis.crypto?.subtle || !keySet.current) {
      void submit({ pass: given.slice(0, passTextMaxChars) }, { method: "post" });
      return;
    }
    const found = passInText(given, issuer);
    if (typeof found !== "string") {
      setChecked({ ok: false, reason: found.reason });
    } else {
      let result = await checkPass(found, keySet.current, issuer, new Date());
      if (!result.ok && result.reason === "unknown_key") {
        const { freshPassKeys } = await import("~/fresh-pass-keys.client");
        const fresh = await freshPassKeys();
        if (fresh) {
          keySet.current = fresh;
          result = await checkPass(found, fresh, issuer, new Date());
        }
      }
      setChecked(verdictOf(result));
    }
    requestAnimationFrame(() => verdictRef.current?.scrollIntoView({ block: "nearest" }));
  }

  // The QR's URL: the pass rides in the fragment, which never reaches a server. It is read, checked, and
  // taken out of the address bar, so that the next checker's history does not carry it.
  useEffect(() => {
    const fromFragment = () => {
      const pass = location.hash.slice(1);
      if (!pass) return;
      history.replaceState(history.state, "", location.pathname + location.search);
      void checkHere(pass);
    };
    fromFragment();
    window.addEventListener("hashchange", fromFragment);
    return () => window.removeEventListener("hashchange", fromFragment);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The device's clock against the server's when the page was made.
  useEffect(() => {
    setClockOff(Math.abs(Date.now() - serverNow) > passClockToleranceSeconds * 1000);
  }, [serverNow]);

  /** With WebCrypto, the form's text or photo is checked here: the photo's code is read by the page's own decoder. */
  async function onCheck(event: React.FormEvent<HTMLFormElement>) {
    if (!globalThis.crypto?.subtle || !keySet.current) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const photo = form.get("photo");
    if (photo instanceof File && photo.size > 0) {
      if (photo.size > maxPassPhotoBytes) return setChecked({ ok: false, photo: "too_large" });
      const read = await qrOfPhoto(photo).catch(() => undefined);
      if (read === undefined) return setChecked({ ok: false, photo: "no_code" });
      return checkHere(read);
    }
    const pasted = form.get("pass");
    if (typeof pasted === "string" && pasted.trim() !== "") return checkHere(pasted);
    setChecked(null);
  }

  return (
    <section className="verify">
      <h1>{text.title}</h1>
      <p className="verify-domain">
        {text.domainLabel} <strong>{host}</strong>
      </p>
      <p className="hint">{text.onlyHere}</p>
      {clockOff ? (
        <p className="notice" role="alert">
          {text.clockOff}
        </p>
      ) : null}
      {unavailable ? <p role="alert">{unavailable}</p> : null}
      <div ref={verdictRef} aria-live="polite">
        {verdict ? <PassVerdict verdict={verdict} strongOnly={strongOnlyNow} text={text.verdict} timeZone={timeZone} language={language} /> : null}
      </div>
      <p>{text.intro}</p>
      <PassScanner text={text.scanner} onText={(scanned) => void checkHere(scanned)} />
      <Form method="post" encType="multipart/form-data" ref={formRef} onSubmit={(event) => void onCheck(event)} className="verify-form">
        <label htmlFor="pass-text">{text.pasteLabel}</label>
        <input id="pass-text" name="pass" type="text" inputMode="url" maxLength={passTextMaxChars} autoComplete="off" spellCheck={false} autoCapitalize="off" />
        <label htmlFor="pass-photo">{text.photoLabel}</label>
        <input id="pass-photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp,image/gif" aria-describedby="pass-photo-hint" />
        <p className="hint" id="pass-photo-hint">
          {text.photoHint}
        </p>
        {posted?.error ? <p role="alert" className="field-error">{posted.error}</p> : null}
        <button type="submit" className="button" disabled={navigation.state === "submitting"}>
          {text.check}
        </button>
      </Form>
      <setting.Form method="post" className="verify-setting">
        <input type="hidden" name="intent" value="strong-only" />
        <label>
          <input type="checkbox" name="strongOnly" defaultChecked={strongOnly} /> {text.strongOnly}
        </label>
        <p className="hint">{text.strongOnlyHint}</p>
        <button type="submit" className="button secondary">
          {text.save}
        </button>
      </setting.Form>
      <p className="hint">{text.tolerance}</p>
    </section>
  );
}
