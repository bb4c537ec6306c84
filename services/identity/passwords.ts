// Passwords of the identity authority: the docs/product/data.md §5 rule as ASP.NET Identity error
// items (the rule itself is contracts/rules.ts, which the app's forms check too;
// docs/product/shared-rules.md), and argon2id hashing and verification, with the same cost for an
// unknown user as for a known one.
import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { hasControlCharacters, missingPasswordClasses, passwordMaxLength, passwordMinLength, passwordTooLong, passwordTooShort } from "../../contracts/rules.ts";
import { describe } from "./errors.ts";
import type { IdentityErrorItem } from "./errors.ts";
import type { UserRow } from "./schema/tables.ts";

/** The error item of each character class the password rule asks for. */
const passwordClassErrors = {
  special: describe.passwordRequiresNonAlphanumeric,
  digit: describe.passwordRequiresDigit,
  lower: describe.passwordRequiresLower,
  upper: describe.passwordRequiresUpper,
};

/**
 * docs/product/data.md §5 password rule (contracts/rules.ts, which the app's forms check too), as
 * ASP.NET Identity error items; empty when the password passes: PasswordTooShort (< 8),
 * PasswordTooLong (> 128), PasswordRequiresNonAlphanumeric (one of !@#$%^&*), PasswordRequiresDigit
 * / Lower / Upper (ASCII, like ASP.NET Identity), PasswordHasControlCharacters.
 */
export function passwordErrors(password: string): IdentityErrorItem[] {
  const errors: IdentityErrorItem[] = [];
  if (passwordTooShort(password)) errors.push(describe.passwordTooShort(passwordMinLength));
  if (passwordTooLong(password)) errors.push(describe.passwordTooLong(passwordMaxLength));
  for (const missing of missingPasswordClasses(password)) errors.push(passwordClassErrors[missing]());
  if (hasControlCharacters(password)) errors.push(describe.passwordHasControlCharacters());
  return errors;
}

/** argon2id, m=19 MiB, t=2, p=1 (OWASP's first recommended setting; the library's defaults). */
export async function hashPassword(password: string): Promise<string> {
  return hash(password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

let dummyHash: Promise<string> | undefined;
/** Verifies against a throwaway hash so unknown users cost as much time as known ones. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString("base64url"));
  await verify(await dummyHash, password).catch(() => false);
}

/** True when `password` matches the user's hash; false for a wrong one or an account without a password yet (after the same work). */
export async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  if (!user.password_hash) {
    await burnPasswordCheck(password);
    return false;
  }
  return verify(user.password_hash, password).catch(() => false);
}
