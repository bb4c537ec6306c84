/**
 * The words of a form's checks (docs/architecture/behaviour.md §4 "Language"). Each schema of
 * app/forms is a function of the catalogue entries its messages come from, so the same checks speak
 * the request's language on the server (the action passes `messagesOf(context)`) and in the
 * browser (the route's loader sends `formWords(messages, keys)`: only that form's entries, no
 * catalogue and no i18n runtime in the page's JavaScript).
 */
import type { Messages } from "../messages/catalogues";

/** The entries `keys` of a catalogue: the words one form's checks are written with. */
export type FormWords<Keys extends readonly (keyof Messages)[]> = Pick<Messages, Keys[number]>;

/** The words made for each catalogue and list of keys, made once (a catalogue is one object per language). */
const made = new WeakMap<Messages, WeakMap<readonly (keyof Messages)[], object>>();

/**
 * The entries `keys` of `messages`, as a plain object a loader can send to the browser: frozen, and
 * the same object for the same catalogue and keys (every form page asked for them anew before).
 * @param messages the request's catalogue (`messagesOf(context)`)
 * @param keys a form's word keys (e.g. `loginWordKeys` of app/forms/account.ts)
 */
export function formWords<const Keys extends readonly (keyof Messages)[]>(messages: Messages, keys: Keys): FormWords<Keys> {
  let byKeys = made.get(messages);
  if (!byKeys) made.set(messages, (byKeys = new WeakMap()));
  let words = byKeys.get(keys);
  if (!words) byKeys.set(keys, (words = Object.freeze(Object.fromEntries(keys.map((key) => [key, messages[key]])))));
  return words as FormWords<Keys>;
}

/**
 * `build` made once per words object: the server passes one catalogue per language, so each
 * language's schema is built once (and `htmlConstraints` computes its constraints once); the
 * browser passes its loader's words, the same object until the page's data is loaded again.
 * @returns a function of the words that answers the same schema for the same words object
 */
export function perWords<Words extends object, Schema>(build: (words: Words) => Schema): (words: Words) => Schema {
  const built = new WeakMap<Words, Schema>();
  return (words) => {
    let schema = built.get(words);
    if (!schema) built.set(words, (schema = build(words)));
    return schema;
  };
}
